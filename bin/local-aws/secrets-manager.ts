/**
 * Secrets Manager for the local runtime: GetSecretValue (the one call the service makes) over the JSON
 * protocol, for the secrets of the synthesised template, so that functions read their secrets by ARN
 * as they do on AWS. An unknown ARN answers ResourceNotFoundException.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AccessDenied, type IamGate } from './iam';
import { secretsRequests } from './iam-requests';

export const startLocalSecretsManager = async (options: {
  secrets: ReadonlyMap<string, string>;
  host?: string;
  gate?: IamGate;
}) => {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let status = 200;
      let payload: unknown;
      try {
        const action = String(req.headers['x-amz-target'] ?? '').replace(/^secretsmanager\./, '');
        const request = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { SecretId?: string };
        options.gate?.authorize(req, secretsRequests(action, request));
        const secretId = request.SecretId ?? '';
        const value = options.secrets.get(secretId);
        if (action !== 'GetSecretValue')
          [status, payload] = [
            400,
            { __type: 'InvalidRequestException', message: `${action} is not supported locally` },
          ];
        else if (value === undefined)
          [status, payload] = [
            400,
            { __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." },
          ];
        else
          payload = {
            ARN: secretId,
            Name: secretId.split(':').pop(),
            SecretString: value,
            VersionId: 'local',
            VersionStages: ['AWSCURRENT'],
          };
      } catch (error) {
        [status, payload] =
          error instanceof AccessDenied
            ? [400, { __type: 'AccessDeniedException', Message: error.message }]
            : [400, { __type: 'SerializationException', message: 'The request is not JSON.' }];
      }
      const text = JSON.stringify(payload);
      res.writeHead(status, {
        'Content-Type': 'application/x-amz-json-1.1',
        'Content-Length': Buffer.byteLength(text),
      });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, options.host ?? '127.0.0.1', resolve));
  return {
    endpoint: `http://${options.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
};
