import {
  createUpload,
  missingUploads,
  readUpload,
  UPLOAD_LIFETIME_MS,
  type UploadStore,
} from '../../../../functions/domain/images/uploads';

const NOW = Date.parse('2026-11-23T12:00:00.000Z');
const caller = { accountId: 'acc_1', keyId: 'key_1' };

const store = (
  objects: Record<string, { bytes: Buffer; uploadedAt: number }> = {},
): UploadStore & { presigned: unknown[] } => {
  const presigned: unknown[] = [];
  return {
    presigned,
    presignPut: async (...args) => {
      presigned.push(args);
      return `https://bucket.example/uploads/${args[0]}/${args[1]}?X-Amz-Signature=abc`;
    },
    stat: async (accountId, uploadId) => {
      const upload = objects[`${accountId}/${uploadId}`];
      return upload && { uploadedAt: upload.uploadedAt };
    },
    read: async (accountId, uploadId) => objects[`${accountId}/${uploadId}`],
  };
};

describe('direct uploads', () => {
  it('answer a PUT URL for the exact size and type, and a reference that is neither base64 nor a URL', async () => {
    const uploads = store();
    const ticket = await createUpload({ uploads, newId: (prefix) => `${prefix}_01ABC`, clock: () => NOW }, caller, {
      sizeBytes: 12_000_000,
      contentType: 'image/jpeg',
    });
    expect(ticket).toEqual({
      upload_id: 'upl_01ABC',
      reference: 'upload:upl_01ABC',
      upload_url: 'https://bucket.example/uploads/acc_1/upl_01ABC?X-Amz-Signature=abc',
      upload_method: 'PUT',
      upload_headers: { 'Content-Type': 'image/jpeg' },
      upload_url_expires_at: '2026-11-23T12:15:00.000Z',
      expires_at: '2026-11-24T12:15:00.000Z',
    });
    expect(uploads.presigned).toEqual([['acc_1', 'upl_01ABC', 'image/jpeg', 12_000_000, 900]]);
  });

  it('serve their bytes for 24 h after they arrive', async () => {
    const uploads = store({ 'acc_1/upl_1': { bytes: Buffer.from('jpeg'), uploadedAt: NOW } });
    await expect(readUpload({ uploads, clock: () => NOW + UPLOAD_LIFETIME_MS - 1 }, 'acc_1', 'upl_1')).resolves.toEqual(
      Buffer.from('jpeg'),
    );
  });

  it('are gone once 24 h have passed', async () => {
    const uploads = store({ 'acc_1/upl_1': { bytes: Buffer.from('jpeg'), uploadedAt: NOW } });
    await expect(
      readUpload({ uploads, clock: () => NOW + UPLOAD_LIFETIME_MS }, 'acc_1', 'upl_1'),
    ).resolves.toBeUndefined();
  });

  it('are not found from another account', async () => {
    const uploads = store({ 'acc_1/upl_1': { bytes: Buffer.from('jpeg'), uploadedAt: NOW } });
    await expect(readUpload({ uploads, clock: () => NOW }, 'acc_2', 'upl_1')).resolves.toBeUndefined();
  });

  it('that a list of sources names are found without their bytes; URLs are not looked at', async () => {
    const uploads = store({
      'acc_1/upl_mine': { bytes: Buffer.from('jpeg'), uploadedAt: NOW },
      'acc_1/upl_old': { bytes: Buffer.from('jpeg'), uploadedAt: NOW - UPLOAD_LIFETIME_MS },
      'acc_2/upl_theirs': { bytes: Buffer.from('jpeg'), uploadedAt: NOW },
    });
    const sources = [
      'https://cdn.example/a.jpg',
      'upload:upl_mine',
      'upload:upl_theirs',
      'upload:upl_never_put',
      'upload:upl_old',
    ];
    await expect(missingUploads({ uploads, clock: () => NOW }, 'acc_1', sources)).resolves.toEqual([
      { index: 2, uploadId: 'upl_theirs' },
      { index: 3, uploadId: 'upl_never_put' },
      { index: 4, uploadId: 'upl_old' },
    ]);
  });
});
