import sharp from 'sharp';
import { validatePhotos } from '../../functions/domain/profiles/training';

const photo = async () => ({
  data: await sharp({ create: { width: 300, height: 300, channels: 3, background: '#888' } })
    .jpeg()
    .toBuffer(),
  format: 'jpeg' as const,
  width: 300,
  height: 300,
});

const deps = (profileStillExists: boolean) => {
  const calls: string[] = [];
  const fake: Parameters<typeof validatePhotos>[0] = {
    clock: () => 0,
    profiles: { patch: async () => profileStillExists },
    decodePhoto: async () => photo(),
    photos: {
      savePhoto: async (_a, _p, index) => {
        calls.push(`photo ${index}`);
        return `k${index}`;
      },
      savePicture: async () => {
        calls.push('picture');
        return 'picture';
      },
      load: async () => [],
      deleteAll: async () => {
        calls.push('deleteAll');
      },
    },
    settings: { trainingTimeScale: 0, photoConcurrency: 2 },
  };
  return { fake, calls };
};

describe('validating photos', () => {
  const step = { accountId: 'acc_1', profileId: 'prf_1', imageUrls: ['https://a.test/1.jpg', 'https://a.test/2.jpg'] };

  it('moves a profile whose photos are usable to QUEUING', async () => {
    const { fake, calls } = deps(true);
    expect(await validatePhotos(fake, step)).toEqual({ ok: true, photoCount: 2 });
    expect(calls).not.toContain('deleteAll');
  });

  it('removes what it stored when the profile was deleted meanwhile', async () => {
    const { fake, calls } = deps(false);
    expect(await validatePhotos(fake, step)).toEqual({ ok: false, message: 'The profile was deleted.' });
    expect(calls.at(-1)).toBe('deleteAll');
  });
});
