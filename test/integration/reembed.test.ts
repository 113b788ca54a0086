/**
 * @jest-environment ./test/faces/onnx-environment.js
 */
/**
 * `npm run admin -- reembed-profiles`: READY profiles without a face template (trained with the old hash
 * signature) or with one of another model get a template of the installed model from their stored
 * photos; current ones are left alone; one whose photos show no usable face is reported, unchanged.
 * Run once through its wiring in process and once as the CLI an operator types.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { services } from '../../bin/local-aws/services';
import { reembedDeps } from '../../bin/reembed-profiles';
import { MODEL_ID } from '../../functions/adapters/faces/onnx-face-analyzer';
import { photoKey } from '../../functions/adapters/s3/photo-store';
import { faceOfModel, type ProfileFace } from '../../functions/domain/profiles/profile';
import { reembedProfiles } from '../../functions/domain/profiles/reembed';
import { subjectPhoto, variedPhoto } from '../support/photos';
import { seedProfile } from '../support/profiles';
import { startTestRuntime, type TestRuntime } from '../support/runtime';

let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime();
});
afterAll(async () => {
  await runtime.close();
});

/** A READY profile whose photos are stored as training left them; `photo` makes each of its five. */
const storedProfile = async (
  accountId: string,
  photo: (index: number) => Promise<Buffer>,
  face: ProfileFace | null = null,
) => {
  const profile = await seedProfile(accountId, { signature: face ? null : 'f0e1d2c3b4a59687|808080', face });
  const photoKeys: string[] = [];
  for (let index = 0; index < 5; index += 1) {
    const key = photoKey(accountId, profile.profileId, index);
    await services().objects.put(key, await photo(index), 'image/jpeg');
    photoKeys.push(key);
  }
  await services().profiles.patch(accountId, profile.profileId, { photoKeys }, Date.now());
  return profile.profileId;
};

const face = (modelId: string) => ({ modelId, kind: 'person' as const, mean: [1, 0, 0], referenceKeys: [] });

describe('re-embedding profiles', () => {
  it('gives old and other-model profiles a template of the installed model, and leaves the rest', async () => {
    const { accountId } = await runtime.newAccount();
    const hashed = await storedProfile(accountId, (index) => subjectPhoto(index, 'jpeg'));
    const otherModel = await storedProfile(accountId, (index) => subjectPhoto(index + 3, 'jpeg'), face('old/0'));
    // Current: a template of the installed model, and crops (a profile without crops was trained before faces).
    const currentFace = { ...face(MODEL_ID), referenceKeys: ['profiles/a/b/references/01.jpg'] };
    const current = await storedProfile(accountId, (index) => subjectPhoto(index, 'jpeg'), currentFace);
    const faceless = await storedProfile(accountId, (index) => variedPhoto(index + 1));

    const report = await reembedProfiles(reembedDeps(services().table, services().objects));
    expect(report.modelId).toBe(MODEL_ID);
    expect(report.reembedded).toEqual(expect.arrayContaining([hashed, otherModel]));
    expect(report.reembedded).not.toContain(current);
    expect(report.failed).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ profileId: faceless, message: expect.stringContaining('shows no face') }),
      ]),
    );

    for (const profileId of [hashed, otherModel]) {
      const profile = await services().profiles.get(accountId, profileId);
      expect(profile?.status).toBe('READY');
      const current = profile && faceOfModel(profile, MODEL_ID);
      expect(current?.mean).toHaveLength(1024);
      expect(current?.referenceKeys.length).toBeGreaterThanOrEqual(3);
      for (const key of current?.referenceKeys ?? []) expect(await services().objects.get(key)).toBeDefined();
      expect(await services().objects.get(`profiles/${accountId}/${profileId}/template.json`)).toBeDefined();
    }
    expect((await services().profiles.get(accountId, current))?.face).toEqual(currentFace);
    // The other model's template is kept beside the new one, for the functions of that model.
    expect((await services().profiles.get(accountId, otherModel))?.face?.modelId).toBe('old/0');
    expect((await services().profiles.get(accountId, faceless))?.face).toBeNull();

    const again = await reembedProfiles(reembedDeps(services().table, services().objects));
    expect(again.reembedded).not.toContain(hashed);
    expect(again.reembedded).not.toContain(otherModel);
  }, 120_000);

  it('runs as the CLI an operator types', async () => {
    const { accountId } = await runtime.newAccount();
    const hashed = await storedProfile(accountId, (index) => subjectPhoto(index + 1, 'jpeg'));
    const root = path.join(__dirname, '..', '..');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
        path.join(root, 'bin', 'admin.ts'),
        'reembed-profiles',
        '--table',
        services().table.name,
        '--region',
        'us-east-1',
        '--endpoint',
        runtime.endpoints.dynamodb,
        '--bucket',
        'service-local',
        '--s3-endpoint',
        runtime.endpoints.s3,
      ],
      { cwd: root, env: { ...process.env, AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' } },
    );
    expect(JSON.parse(stdout)).toMatchObject({ modelId: MODEL_ID, reembedded: expect.arrayContaining([hashed]) });
    expect((await services().profiles.get(accountId, hashed))?.face?.modelId).toBe(MODEL_ID);
  }, 120_000);
});
