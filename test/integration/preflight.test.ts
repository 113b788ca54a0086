/**
 * @jest-environment ./test/faces/onnx-environment.js
 */
/**
 * The training-set preflight, black box: a good set of real face photos, a set with a faceless photo,
 * a group photo and another person, duplicates, a set too small for its tier, unusable photos; nothing
 * created, nothing charged. Uploaded photos are read once: sent again, only new or changed ones are read.
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import sharp from 'sharp';
import { services } from '../../bin/local-aws/services';
import { uploadKey } from '../../functions/adapters/s3/uploads';
import { faceFixture, subjectPhoto, variedPhoto } from '../support/photos';
import { getJson } from '../support/runtime';
import { useTrainingWorld } from '../support/training';
import { uploadBytes } from '../support/uploads';
import { balanceOf } from './images/support';

const world = useTrainingWorld({ count: 10, format: 'jpeg' });

interface Report {
  training_tier: string;
  accepted: boolean;
  problems: string[];
  photos: Array<{
    index: number;
    url: string;
    status: 'checked' | 'not_checked';
    fetched: boolean;
    error: string | null;
    format: string | null;
    width: number | null;
    height: number | null;
    face: {
      count: number;
      usable: boolean;
      box_px: number | null;
      boxes: Array<{ x: number; y: number; width: number; height: number }>;
      sharpness: number | null;
      yaw_degrees: number | null;
      same_person: boolean | null;
      similarity: number | null;
    } | null;
    warnings: Array<{ code: string; message: string }>;
  }>;
  usable_photos: number;
  needed_photos: number;
}

/** Uploads `bytes` as the studio does; answers the reference. */
const upload = (apiKey: string, bytes: Buffer): Promise<string> => uploadBytes(world.runtime, apiKey, bytes);

const preflight = async (apiKey: string, body: unknown): Promise<Report> => {
  const response = await world.runtime.call('POST', '/v2/service/profiles/preflight', { apiKey, body });
  expect(response.status).toBe(200);
  return (await response.json()) as Report;
};

describe('the training-set preflight', () => {
  it('accepts a good set for its tier, reports each photo, and charges and creates nothing', async () => {
    const account = await world.runtime.newAccount(10_000_000);
    const report = await preflight(account.apiKey, { image_urls: world.photoUrls.slice(0, 5), training_tier: 'fast' });
    expect(report).toMatchObject({
      training_tier: 'fast',
      accepted: true,
      problems: [],
      usable_photos: 5,
      needed_photos: 4,
    });
    expect(report.photos).toEqual(
      world.photoUrls.slice(0, 5).map((url, index) => ({
        index,
        url,
        status: 'checked',
        fetched: true,
        error: null,
        format: 'jpeg',
        width: expect.any(Number),
        height: expect.any(Number),
        face: {
          count: 1,
          usable: true,
          box_px: expect.any(Number),
          boxes: [
            { x: expect.any(Number), y: expect.any(Number), width: expect.any(Number), height: expect.any(Number) },
          ],
          sharpness: expect.any(Number),
          yaw_degrees: expect.any(Number),
          same_person: true,
          similarity: expect.any(Number),
        },
        warnings: [],
      })),
    );
    for (const photo of report.photos) {
      expect(photo.face!.box_px).toBeGreaterThanOrEqual(96);
      // The box in whole pixels, inside the photo; box_px is its smaller side.
      const [box] = photo.face!.boxes;
      for (const value of Object.values(box!)) expect(Number.isInteger(value)).toBe(true);
      expect(box!.x + box!.width).toBeLessThanOrEqual(photo.width!);
      expect(box!.y + box!.height).toBeLessThanOrEqual(photo.height!);
      expect(Math.abs(Math.min(box!.width, box!.height) - photo.face!.box_px!)).toBeLessThanOrEqual(1);
      expect(photo.face!.similarity).toBeGreaterThan(0.9);
    }
    expect(await balanceOf(account.accountId)).toBe(10_000_000);
    expect(
      (await getJson<{ profiles: unknown[] }>(world.runtime, '/v2/service/profiles/ids', account.apiKey)).profiles,
    ).toEqual([]);
  });

  it('flags a faceless photo and still accepts a set with enough usable faces', async () => {
    const account = await world.runtime.newAccount();
    const faceless = world.photos.add('faceless.jpg', await variedPhoto(1), 'image/jpeg');
    const report = await preflight(account.apiKey, {
      image_urls: [...world.photoUrls.slice(0, 4), faceless],
      training_tier: 'fast',
    });
    expect(report).toMatchObject({ accepted: true, usable_photos: 4, needed_photos: 4 });
    expect(report.photos[4]!.face).toMatchObject({ count: 0, usable: false, same_person: null });
    expect(report.photos[4]!.warnings).toEqual([{ code: 'no_face', message: 'image_urls[4] shows no face.' }]);
  });

  it('flags a group photo and a photo of another person, and refuses when too few are left', async () => {
    const account = await world.runtime.newAccount();
    const group = world.photos.add('group.jpg', faceFixture('group-sample6.jpg'), 'image/jpeg');
    const stranger = world.photos.add('stranger.jpg', faceFixture('man-b.jpg'), 'image/jpeg');
    const report = await preflight(account.apiKey, {
      image_urls: [...world.photoUrls.slice(0, 3), group, stranger],
      training_tier: 'fast',
    });
    expect(report).toMatchObject({ accepted: false, usable_photos: 3, needed_photos: 4 });
    expect(report.photos[3]!.face).toMatchObject({ count: 4, usable: false, box_px: null });
    expect(report.photos[3]!.face!.boxes).toHaveLength(4);
    expect(report.photos[4]!.face!.boxes).toHaveLength(1);
    expect(report.photos[3]!.warnings.map((warning) => warning.code)).toEqual(['several_faces']);
    expect(report.photos[4]!.face).toMatchObject({ count: 1, usable: false, same_person: false });
    expect(report.photos[4]!.warnings).toEqual([
      { code: 'other_person', message: 'image_urls[4] shows someone other than the rest of the set.' },
    ]);
    for (const photo of report.photos.slice(0, 3)) expect(photo.face).toMatchObject({ same_person: true });
    expect(report.problems).toEqual([
      'Only 3 of 5 photos show one usable face of the subject; the fast tier needs 4 (the training would end in ERROR).',
    ]);
  });

  it('warns of a duplicate and of a near-duplicate, without refusing', async () => {
    const account = await world.runtime.newAccount();
    const copy = world.photos.add(
      'p0-copy.jpg',
      await sharp(await subjectPhoto(0, 'jpeg'))
        .resize(540)
        .jpeg({ quality: 70 })
        .toBuffer(),
      'image/jpeg',
    );
    const report = await preflight(account.apiKey, {
      image_urls: [...world.photoUrls.slice(0, 4), world.photoUrls[0], copy],
      training_tier: 'fast',
    });
    expect(report.accepted).toBe(true);
    expect(report.photos[4]!.warnings).toEqual([
      { code: 'duplicate', message: 'image_urls[4] is the same photo as image_urls[0]; it teaches nothing new.' },
    ]);
    expect(report.photos[5]!.warnings).toEqual([
      {
        code: 'near_duplicate',
        message: 'image_urls[5] is nearly the same photo as image_urls[0]; varied photos train better.',
      },
    ]);
  });

  it('refuses a set too small for its tier, and says why', async () => {
    const account = await world.runtime.newAccount();
    const report = await preflight(account.apiKey, {
      image_urls: world.photoUrls.slice(0, 5),
      training_tier: 'standard',
    });
    expect(report).toMatchObject({
      accepted: false,
      problems: [
        'The standard tier takes 10 to 50 photos; this set has 5 (profiles/add would answer 422).',
        'Only 5 of 5 photos show one usable face of the subject; the standard tier needs 8 (the training would end in ERROR).',
      ],
    });
  });

  it('refuses a set with a photo too small, one not fetched and one not an image; warns of blur, grey and an extreme crop', async () => {
    const account = await world.runtime.newAccount();
    const tiny = world.photos.add(
      'tiny.jpg',
      await sharp(await variedPhoto(11))
        .resize(200)
        .jpeg()
        .toBuffer(),
      'image/jpeg',
    );
    const notes = world.photos.add('notes.txt', Buffer.from('not a photo'), 'text/plain');
    const blurry = world.photos.add(
      'blurry.jpg',
      await sharp(await variedPhoto(12))
        .blur(6)
        .jpeg()
        .toBuffer(),
      'image/jpeg',
    );
    const grey = world.photos.add(
      'grey.jpg',
      await sharp(await variedPhoto(13))
        .greyscale()
        .jpeg()
        .toBuffer(),
      'image/jpeg',
    );
    const banner = world.photos.add('banner.jpg', await variedPhoto(14, { width: 1200, height: 300 }), 'image/jpeg');
    const report = await preflight(account.apiKey, {
      image_urls: [tiny, world.photos.missing('gone.jpg'), notes, blurry, grey, banner],
      training_tier: 'fast',
    });
    expect(report.accepted).toBe(false);
    const [small, gone, text, blur, greyscale, crop] = report.photos;
    expect(small).toMatchObject({ fetched: true, width: 200, warnings: [{ code: 'no_face' }, { code: 'too_small' }] });
    expect(gone).toMatchObject({
      fetched: false,
      error: expect.stringContaining('image_urls[1] could not be fetched'),
    });
    expect(text).toMatchObject({
      fetched: true,
      error: 'image_urls[2] is not a supported image (JPEG, PNG, WebP, HEIC/HEIF).',
    });
    expect(blur!.warnings.map((warning) => warning.code)).toEqual(['no_face', 'blurry']);
    expect(greyscale!.warnings.map((warning) => warning.code)).toEqual(['no_face', 'greyscale']);
    expect(crop!.warnings.map((warning) => warning.code)).toEqual(['no_face', 'extreme_aspect']);
    expect(report.problems).toHaveLength(4);
  });

  it('outlines a face in the photo as it is shown: after its EXIF rotation', async () => {
    const account = await world.runtime.newAccount();
    // Taller than wide, so that a rotation not applied would show in the dimensions too.
    const upright = await sharp(await subjectPhoto(0, 'jpeg'))
      .extend({ bottom: 240, background: '#777' })
      .jpeg()
      .toBuffer();
    // The same photo stored turned a quarter to the left, with EXIF orientation 6 saying "turn it right to show".
    const turned = await sharp(await sharp(upright).rotate(-90).toBuffer())
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const report = await preflight(account.apiKey, {
      image_urls: [
        world.photos.add('upright.jpg', upright, 'image/jpeg'),
        world.photos.add('turned.jpg', turned, 'image/jpeg'),
      ],
      training_tier: 'fast',
    });
    const [shown, rotated] = report.photos;
    expect(shown!.height! - shown!.width!).toBe(240);
    expect({ width: rotated!.width, height: rotated!.height }).toEqual({ width: shown!.width, height: shown!.height });
    const [a] = shown!.face!.boxes;
    const [b] = rotated!.face!.boxes;
    for (const key of ['x', 'y', 'width', 'height'] as const)
      expect(Math.abs(a![key] - b![key])).toBeLessThanOrEqual(6);
  });

  it('refuses a URL that is not http(s) with a 422, as profiles/add does', async () => {
    const account = await world.runtime.newAccount();
    const invalid = await world.runtime.call('POST', '/v2/service/profiles/preflight', {
      apiKey: account.apiKey,
      body: { image_urls: ['ftp://example.com/a.jpg'] },
    });
    expect(invalid.status).toBe(422);
  });

  it('never fetches from an address that is not public, as training would not', async () => {
    const account = await world.runtime.newAccount();
    const report = await preflight(account.apiKey, {
      image_urls: ['http://10.0.0.8/a.jpg', 'http://169.254.169.254/latest/meta-data'],
      training_tier: 'fast',
    });
    expect(report.photos.map((photo) => ({ fetched: photo.fetched, error: photo.error }))).toEqual([
      { fetched: false, error: expect.stringContaining('image_urls[0] could not be fetched') },
      { fetched: false, error: expect.stringContaining('image_urls[1] could not be fetched') },
    ]);
  });

  it('reads an uploaded photo once: sent again with one more, only the new one is read, and a changed one again', async () => {
    const account = await world.runtime.newAccount();
    const references: string[] = [];
    for (let index = 0; index < 6; index += 1)
      references.push(await upload(account.apiKey, await subjectPhoto(index, 'jpeg')));
    const first = await preflight(account.apiKey, { image_urls: references.slice(0, 5), training_tier: 'fast' });
    expect(first).toMatchObject({ accepted: true, usable_photos: 5 });

    // What the preflight remembered: one record per upload, by its id and ETag. Marked here, so that an
    // answer built from the record rather than from the bytes shows.
    const records = async () =>
      (
        await services().table.doc.send(
          new QueryCommand({
            TableName: services().table.name,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
            ExpressionAttributeValues: { ':pk': `RATE#${account.accountId}`, ':prefix': 'PREFLIGHT#' },
          }),
        )
      ).Items ?? [];
    const remembered = await records();
    expect(remembered).toHaveLength(5);
    for (const item of remembered) {
      const record = JSON.parse(item.record as string) as { width: number };
      await services().table.doc.send(
        new UpdateCommand({
          TableName: services().table.name,
          Key: { pk: item.pk, sk: item.sk },
          UpdateExpression: 'SET #record = :record',
          ExpressionAttributeNames: { '#record': 'record' },
          ExpressionAttributeValues: { ':record': JSON.stringify({ ...record, width: 4321 }) },
        }),
      );
    }

    const second = await preflight(account.apiKey, { image_urls: references, training_tier: 'fast' });
    const newWidth = second.photos[5]!.width;
    expect(newWidth).not.toBe(4321);
    expect(second.photos.map((photo) => photo.width)).toEqual([4321, 4321, 4321, 4321, 4321, newWidth]);
    expect(second.photos.every((photo) => photo.status === 'checked')).toBe(true);
    expect(second).toMatchObject({ accepted: true, usable_photos: 6 });
    expect(await records()).toHaveLength(6);

    // New bytes under the same upload (a second PUT to its URL): a new ETag, read again.
    const uploadId = references[0]!.slice('upload:'.length);
    await services().objects.put(
      uploadKey(account.accountId, uploadId),
      await sharp(await subjectPhoto(0, 'jpeg'))
        .resize(700)
        .jpeg()
        .toBuffer(),
      'image/jpeg',
    );
    const third = await preflight(account.apiKey, { image_urls: references, training_tier: 'fast' });
    expect(third.photos.map((photo) => photo.width)).toEqual([700, 4321, 4321, 4321, 4321, newWidth]);
  });
});
