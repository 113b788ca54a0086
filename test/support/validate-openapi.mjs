// Validates an OpenAPI document read from stdin with @seriousme/openapi-schema-validator (an ES module
// that reads its schemas through import.meta, so it runs here rather than inside Jest's transform).
import { Validator } from '@seriousme/openapi-schema-validator';

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const validator = new Validator();
const result = await validator.validate(JSON.parse(Buffer.concat(chunks).toString('utf8')));
process.stdout.write(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? [] }));
