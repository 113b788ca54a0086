/**
 * The playground's request as code: a curl command and a TypeScript client call, both with the key as a
 * placeholder and the real body.
 */
import { type Operation, serviceUrl } from '../../service';

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** The request as curl, with the poll to follow for an async job. */
export const curlCommand = (operation: Operation, request: Record<string, unknown>): string => {
  const url = `${serviceUrl()}/${operation}`;
  const lines = [
    `curl -s -X POST ${quote(url)} \\`,
    `  -H "X-API-Key: $API_KEY" -H 'Content-Type: application/json' \\`,
    `  -d ${quote(JSON.stringify(request))}`,
  ];
  if (request.async)
    lines.push(`# then poll: curl -s -H "X-API-Key: $API_KEY" ${quote(`${serviceUrl()}/jobs/`)}<job_id>`);
  return lines.join('\n');
};

/** The request as a call of the TypeScript client, waiting for an async job. */
export const clientCall = (operation: Operation, request: Record<string, unknown>): string => {
  const baseUrl = serviceUrl().replace(/\/v2\/service$/, '');
  const call = `await client.${operation}(${JSON.stringify(request, null, 2)})`;
  return [
    "import { createClient } from '@identity-image-service/client';",
    '',
    `const client = createClient({ baseUrl: ${JSON.stringify(baseUrl)}, apiKey: process.env.API_KEY! });`,
    ...(request.async
      ? [
          `const job = ${call};`,
          'const done = await client.waitForJob(job.job_id);',
          'console.log(done.status, done.cost, done.result?.known_subjects);',
        ]
      : [`const result = ${call};`, 'console.log(result.known_subjects, result.recognized_faces);']),
  ].join('\n');
};
