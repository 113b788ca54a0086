import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const CLIENT_DIR = path.join(__dirname, '../../clients/typescript');

// openapi-typescript loads ES modules through require(), which Node allows and Jest does not: it runs in a child.
it('the client’s committed types are what the current OpenAPI document generates (npm run generate -w clients/typescript)', () => {
  const generated = execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(CLIENT_DIR, 'scripts/generate.ts'), '--stdout'],
    {
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      maxBuffer: 16 * 1024 * 1024,
    },
  ).toString('utf8');
  const committed = fs.readFileSync(path.join(CLIENT_DIR, 'src/schema.d.ts'), 'utf8');
  expect(generated.length).toBeGreaterThan(1000);
  expect(committed === generated).toBe(true);
});
