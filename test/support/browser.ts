/**
 * The portal's browser tests: Debian's chromium driven by playwright-core (no browser download), and each
 * page kept as a screenshot under test-output/.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

export const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((candidate) =>
  fs.existsSync(candidate),
);
const SCREENSHOTS = path.join(__dirname, '../../test-output');

/** `it` where chromium is installed or REQUIRE_BROWSER=1 (CI) demands it; otherwise `it.skip`, saying so. */
export const browserIt = (suite: string): jest.It => {
  if (CHROMIUM || process.env.REQUIRE_BROWSER === '1') return it;
  console.warn(`chromium not installed: ${suite} is skipped (Debian: apt-get install chromium)`);
  return it.skip;
};

/** Keeps the page as test-output/portal-<name>.png. */
export const shoot = async (page: Page, name: string): Promise<void> => {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `portal-${name}.png`), fullPage: true });
};
