/** A direct upload as a client makes it: ask for the ticket, PUT the bytes to its presigned URL. */
import type { TestRuntime } from './runtime';

/**
 * Asks `runtime` for an upload of `bytes` and PUTs them with the ticket's headers (and `origin`, as a
 * browser on another page would send it); answers the `upload:` reference.
 */
export const uploadBytes = async (
  runtime: Pick<TestRuntime, 'call'>,
  apiKey: string,
  bytes: Buffer,
  { contentType = 'image/jpeg', origin }: { contentType?: string; origin?: string } = {},
): Promise<string> => {
  const response = await runtime.call('POST', '/v2/service/uploads', {
    apiKey,
    body: { size_bytes: bytes.length, content_type: contentType },
  });
  expect(response.status).toBe(200);
  const ticket = (await response.json()) as {
    reference: string;
    upload_url: string;
    upload_headers: Record<string, string>;
  };
  const put = await fetch(ticket.upload_url, {
    method: 'PUT',
    headers: { ...ticket.upload_headers, ...(origin && { Origin: origin }) },
    body: new Uint8Array(bytes),
  });
  expect(put.status).toBe(200);
  return ticket.reference;
};
