import { execFileSync } from 'node:child_process';

/**
 * Verifies callback signatures with a third-party GitHub-style verifier, @octokit/webhooks-methods.
 * It is ESM-only with an "import"-only export, which jest's CommonJS loader cannot resolve, so it runs
 * in a child Node process.
 */
export const octokitVerify = (cases: Array<{ secret: string; payload: string; signature: string }>): boolean[] => {
  const script = `
    import { verify } from '@octokit/webhooks-methods';
    const cases = JSON.parse(process.argv[1]);
    const results = [];
    for (const c of cases) results.push(await verify(c.secret, c.payload, c.signature).catch(() => false));
    process.stdout.write(JSON.stringify(results));
  `;
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', script, JSON.stringify(cases)], {
    encoding: 'utf8',
    cwd: process.cwd(),
  });
  return JSON.parse(output) as boolean[];
};
