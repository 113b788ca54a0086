/**
 * The provider table is the one place a provider is written: docs/providers.md's table of providers
 * must say what each row says (its route prefix, its variables and default, its secret and context),
 * each row must have its double, and the settings must read exactly the row's variables.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  HOSTED_PROVIDER_IDS,
  HOSTED_PROVIDERS,
  PROVIDER_VARIABLES,
  queueRow,
  ROUTE_TARGETS,
  secretConstructId,
  trainerRow,
} from '../../../functions/deployment/providers';
import { loadConfig } from '../../../functions/deployment/settings';

const ROOT = path.resolve(__dirname, '../../..');
const providersPage = fs.readFileSync(path.join(ROOT, 'docs/providers.md'), 'utf8');
/** The rows of the providers table: the lines of the table whose header starts `| provider | route |`. */
const tableRows = (() => {
  const lines = providersPage.split('\n');
  const start = lines.findIndex((line) => line.startsWith('| provider | route |'));
  const rows: string[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line);
  }
  return rows;
})();

describe('the provider table', () => {
  it('has one row in docs/providers.md per provider, and the HTTP engine', () => {
    const routes = tableRows.map((row) => row.match(/^\|[^|]*\| `([a-z0-9-]+)[:`]/)?.[1]);
    expect(routes).toEqual(Object.keys(ROUTE_TARGETS));
  });

  it.each(HOSTED_PROVIDER_IDS)('documents what the row of %s says', (id) => {
    const row = HOSTED_PROVIDERS[id];
    const line = tableRows.find((text) => text.includes(`\`${id}:`));
    expect(line).toBeDefined();
    for (const fact of [
      `\`${row.key.env}\``,
      `\`${row.baseUrl.env}\` (\`${row.baseUrl.default}\`)`,
      `secret \`${secretConstructId(id)}\``,
      `context \`${row.baseUrl.context}\``,
    ])
      expect(line).toContain(fact);
  });

  it.each(HOSTED_PROVIDER_IDS)('has a local double for %s', (id) => {
    expect(fs.existsSync(path.join(ROOT, HOSTED_PROVIDERS[id].double))).toBe(true);
  });

  it('is what the settings read: each row its base URL (default or set), its key and its secret ARN, and its queue', () => {
    const mediaHosts = new Set(HOSTED_PROVIDER_IDS.flatMap((id) => queueRow(id)?.mediaHosts.env ?? []));
    const environment = Object.fromEntries(
      PROVIDER_VARIABLES.map((name) => [
        name,
        mediaHosts.has(name)
          ? `${name.toLowerCase().replaceAll('_', '-')}.test,*.cdn.test`
          : `https://${name.toLowerCase()}.test`,
      ]),
    );
    const required = { SERVICE_TABLE_NAME: 'table', SERVICE_BUCKET_NAME: 'bucket' };
    const { providers } = loadConfig({ ...required, ...environment });
    for (const id of HOSTED_PROVIDER_IDS) {
      const { baseUrl, key } = HOSTED_PROVIDERS[id];
      const queue = queueRow(id);
      const trainer = trainerRow(id);
      expect(providers[id]).toEqual({
        baseUrl: environment[baseUrl.env],
        key: environment[key.env],
        keySecretArn: environment[key.secretArnEnv],
        ...(queue && {
          mediaHosts: [`${queue.mediaHosts.env.toLowerCase().replaceAll('_', '-')}.test`, '*.cdn.test'],
          webhookKeysUrl: environment[queue.webhookKeysUrl.env],
          webhookUserId: environment[queue.webhookUserId.env],
        }),
        ...(trainer && { platformUrl: environment[trainer.platformUrl.env] }),
      });
      expect(loadConfig(required).providers[id]).toEqual({
        baseUrl: baseUrl.default,
        key: '',
        ...(queue && { mediaHosts: queue.mediaHosts.default, webhookKeysUrl: queue.webhookKeysUrl.default }),
        ...(trainer && { platformUrl: trainer.platformUrl.default }),
      });
      // An empty user id pins nothing, as if unset.
      if (queue)
        expect(loadConfig({ ...required, [queue.webhookUserId.env]: ' ' }).providers[id]).not.toHaveProperty(
          'webhookUserId',
        );
    }
  });

  it("refuses a queued provider's media hosts that are not hosts", () => {
    const queued = HOSTED_PROVIDER_IDS.flatMap((id) => queueRow(id) ?? []);
    expect(queued.length).toBeGreaterThan(0);
    for (const queue of queued)
      expect(() =>
        loadConfig({ SERVICE_TABLE_NAME: 'table', [queue.mediaHosts.env]: 'https://cdn.test/files' }),
      ).toThrow(`${queue.mediaHosts.env}: hosts such as`);
  });
});
