import fs from 'node:fs';
import path from 'node:path';
import { SANDBOX_PROMPT_TOKENS } from '../../functions/adapters/engine/sandbox-prompts';
import { API_VERSIONS, ROUTES, routePath } from '../../functions/api/routes';
import { LOCAL_ENV_SETTINGS } from '../../functions/deployment/env-names';

const readme = fs.readFileSync(path.join(__dirname, '../../README.md'), 'utf8');

describe('the README', () => {
  it('starts with the two commands that work on a fresh machine', () => {
    const firstBlock = readme.split('```')[1]!;
    expect(firstBlock).toContain('npm ci && npm start');
    expect(firstBlock).toContain('npm ci && npm test');
  });

  it('lists every sandbox prompt token with its effect', () => {
    for (const { token, effect } of SANDBOX_PROMPT_TOKENS) expect(readme).toContain(`| \`${token}\` | ${effect} |`);
  });

  it('lists every public route with its method', () => {
    for (const route of ROUTES.filter((r) => !r.path.startsWith('/internal/'))) {
      expect(readme).toContain(`| \`${route.method} ${routePath(API_VERSIONS[0], route)}\` |`);
    }
  });

  it('lists every development setting in the rows of Running locally', () => {
    const section = readme.slice(readme.indexOf('## Running locally'), readme.indexOf('## Running the artefacts'));
    const firstCells = section
      .split('\n')
      .filter((line) => line.startsWith('| `'))
      .map((line) => line.split(' | ')[0]!);
    for (const name of LOCAL_ENV_SETTINGS)
      expect(firstCells.filter((cell) => cell.includes(`\`${name}\``))).toHaveLength(1);
  });
});
