/**
 * The folders show the groups: each route's handler lives in the folder of its resource group, the
 * group that is also its nested stack on AWS (lib/service-stack.ts), and each group folder holds only
 * its routes' handlers and what they share.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROUTE_GROUPS, ROUTES } from '../../../functions/deployment/routes';

const API_DIR = path.resolve(__dirname, '../../../functions/api');

test("every route's handler is in its group's folder, and exists", () => {
  for (const route of ROUTES) {
    expect({ route: route.path, folder: path.posix.dirname(route.handler) }).toEqual({
      route: route.path,
      folder: route.group,
    });
    expect(fs.existsSync(path.join(API_DIR, `${route.handler}.ts`))).toBe(true);
  }
});

test("a group's folder holds its routes' handlers and at most one module they share", () => {
  for (const group of ROUTE_GROUPS) {
    const handlers = new Set(
      ROUTES.filter((route) => route.group === group).map((route) => path.posix.basename(route.handler)),
    );
    const modules = fs.readdirSync(path.join(API_DIR, group)).map((file) => file.replace(/\.ts$/, ''));
    const others = modules.filter((module) => !handlers.has(module));
    expect({ group, others: others.length <= 1 }).toEqual({ group, others: true });
  }
});

test('no handler is left at the top of functions/api', () => {
  const top = fs
    .readdirSync(API_DIR, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);
  expect(top).toEqual([]);
});
