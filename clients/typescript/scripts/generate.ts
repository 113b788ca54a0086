/** Writes src/schema.d.ts from the service's OpenAPI document; with `--stdout`, prints it instead (the repository's currency test). */
import fs from 'node:fs';
import path from 'node:path';
import { generatedSchema } from './schema';

const target = path.join(__dirname, '../src/schema.d.ts');

void generatedSchema().then((text) => {
  if (process.argv.includes('--stdout')) return void process.stdout.write(text);
  fs.writeFileSync(target, text);
  console.log(`wrote ${path.relative(process.cwd(), target)} (${text.length} characters)`);
});
