import { decodeEmbedding, encodeEmbedding, toProfile } from '../../../../functions/adapters/dynamo/profiles-repository';
import { profileItem } from '../../../../functions/adapters/dynamo/records';
import { normalise } from '../../../../functions/domain/faces/vectors';
import { aProfile } from '../../../support/builders/profiles';

const mean = normalise(Array.from({ length: 1024 }, (_, index) => Math.sin(index + 1)));
const face = { modelId: 'human-faceres-3.3.6/b2', kind: 'person' as const, mean, referenceKeys: ['r/01.jpg'] };

describe("a profile's face in the table", () => {
  it('stores the mean as float32 little-endian base64, 4 bytes a value', () => {
    const item = profileItem(aProfile('acc_1', { face }));
    expect(typeof item.face?.mean).toBe('string');
    expect(Buffer.from(String(item.face?.mean), 'base64')).toHaveLength(4096);
    expect(Buffer.from(encodeEmbedding([1.5]), 'base64')).toEqual(Buffer.from([0, 0, 0xc0, 0x3f]));
    expect(JSON.stringify(item).length).toBeLessThan(8_000);
  });

  it('reads back the same face, to float32 precision', () => {
    const read = toProfile(profileItem(aProfile('acc_1', { face })));
    expect(read.face).toMatchObject({ modelId: face.modelId, kind: 'person', referenceKeys: ['r/01.jpg'] });
    const largestError = Math.max(...(read.face?.mean ?? []).map((value, index) => Math.abs(value - mean[index]!)));
    expect(read.face?.mean).toHaveLength(1024);
    expect(largestError).toBeLessThan(1e-7);
    expect(decodeEmbedding(encodeEmbedding([0.25, -1]))).toEqual([0.25, -1]);
  });

  it('reads a profile trained before faces as having none', () => {
    const {
      face: _face,
      photoNotes: _notes,
      ...old
    } = profileItem(aProfile('acc_1', { signature: 'f0e1d2c3b4a59687|808080' }));
    expect(toProfile(old)).toMatchObject({ face: null, photoNotes: [], signature: 'f0e1d2c3b4a59687|808080' });
  });
});
