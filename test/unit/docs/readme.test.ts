import fs from 'node:fs';
import path from 'node:path';
import { SANDBOX_PROMPT_TOKENS } from '../../../functions/adapters/engine/sandbox-prompts';
import { LOCAL_ENV_SETTINGS } from '../../../functions/deployment/env-names';
import { API_VERSIONS, ROUTES, routePath } from '../../../functions/deployment/routes';

const read = (file: string) => fs.readFileSync(path.join(__dirname, '../../..', file), 'utf8');
const readme = read('README.md');

describe('the README and its docs pages', () => {
  it('the README starts with the two commands that work on a fresh machine', () => {
    const firstBlock = readme.split('```')[1]!;
    expect(firstBlock).toContain('npm ci && npm start');
    expect(firstBlock).toContain('npm ci && npm test');
  });

  it('the README links to the list of what only a real AWS account can verify', () => {
    expect(readme).toContain('](docs/deploy-aws.md#what-only-a-real-aws-account-can-verify)');
    expect(read('docs/deploy-aws.md')).toContain('\n## What only a real AWS account can verify\n');
  });

  it('docs/providers.md lists every sandbox prompt token with its effect', () => {
    const providers = read('docs/providers.md');
    for (const { token, effect } of SANDBOX_PROMPT_TOKENS) expect(providers).toContain(`| \`${token}\` | ${effect} |`);
  });

  it('docs/api.md lists every public route with its method', () => {
    const api = read('docs/api.md');
    for (const route of ROUTES.filter((r) => !r.path.startsWith('/internal/'))) {
      expect(api).toContain(`| \`${route.method} ${routePath(API_VERSIONS[0], route)}\` |`);
    }
  });

  it('docs/local-runtime.md lists every development setting in the rows of Running locally', () => {
    const page = read('docs/local-runtime.md');
    const start = page.indexOf('\n## Running locally\n');
    const end = page.indexOf('\n## Running the artefacts\n');
    expect(start).toBeGreaterThan(-1);
    expect(end).toBeGreaterThan(start);
    const firstCells = page
      .slice(start, end)
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split(' | ')[0]!);
    for (const name of LOCAL_ENV_SETTINGS)
      expect(firstCells.filter((cell) => cell.includes(`\`${name}\``))).toHaveLength(1);
  });
});
