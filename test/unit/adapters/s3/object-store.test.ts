/**
 * The origin a browser must be allowed to reach for a direct upload's PUT (the portal's connect-src) is
 * exactly the one the presigner puts in its URLs: on AWS the bucket's regional virtual-hosted origin, and
 * with an endpoint (the local S3) the endpoint's own. So are the presigned GETs download links redirect to
 * (the portal's img-src, for job outputs). Checked against the SDK's presigner itself.
 */
import { createObjectStore, presignedUrlOrigin } from '../../../../functions/adapters/s3/object-store';

const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
beforeAll(() => {
  // Presigning needs credentials to sign with; nothing is sent.
  process.env.AWS_ACCESS_KEY_ID = 'AKIDEXAMPLE';
  process.env.AWS_SECRET_ACCESS_KEY = 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY';
});
afterAll(() => {
  for (const [name, value] of [
    ['AWS_ACCESS_KEY_ID', saved.id],
    ['AWS_SECRET_ACCESS_KEY', saved.secret],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const presignedGetOrigin = async (config: { bucket: string; region: string; endpoint?: string }) =>
  new URL(await createObjectStore(config).presignGet('outputs/acc_1/job_1/0.jpg', 900)).origin;
const presignedPutOrigin = async (config: { bucket: string; region: string; endpoint?: string }) =>
  new URL(await createObjectStore(config).presignPut('uploads/acc_1/upl_1', 'image/jpeg', 1000, 900)).origin;

describe('the origin of presigned URLs', () => {
  it.each(['us-east-1', 'eu-west-1', 'ap-southeast-2'])(
    'is the regional virtual-hosted bucket origin on AWS (%s)',
    async (region) => {
      const config = { bucket: 'service-bucket83908e77-1abcdefghijk', region };
      expect(presignedUrlOrigin(config)).toBe(`https://service-bucket83908e77-1abcdefghijk.s3.${region}.amazonaws.com`);
      expect(await presignedPutOrigin(config)).toBe(presignedUrlOrigin(config));
      // The GETs a download link redirects to (the portal's img-src, for job outputs) too.
      expect(await presignedGetOrigin(config)).toBe(presignedUrlOrigin(config));
    },
  );

  it('is the endpoint’s own where one is set (the local S3, path-style)', async () => {
    const config = { bucket: 'service-data', region: 'us-east-1', endpoint: 'http://127.0.0.1:4569' };
    expect(presignedUrlOrigin(config)).toBe('http://127.0.0.1:4569');
    expect(await presignedPutOrigin(config)).toBe(presignedUrlOrigin(config));
  });
});
