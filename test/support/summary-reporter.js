/**
 * Prints one plain closing line, "N passed, N failed, N skipped", after Jest's own summary. When
 * TEST_TIMINGS_FILE names a file (bin/test/run-phases.ts sets it per phase), it also writes there the
 * counts and each test file's seconds, for the table `npm test` ends with.
 */
const fs = require('node:fs');
const path = require('node:path');

class SummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const { numPassedTests, numFailedTests, numPendingTests, numTodoTests } = results;
    process.stdout.write(
      `\n${numPassedTests} passed, ${numFailedTests} failed, ${numPendingTests + numTodoTests} skipped\n`,
    );
    const timingsFile = process.env.TEST_TIMINGS_FILE;
    if (!timingsFile) return;
    const files = results.testResults.map((file) => ({
      file: path.relative(this.rootDir, file.testFilePath),
      seconds: (file.perfStats.end - file.perfStats.start) / 1000,
      tests: file.testResults.length,
    }));
    const timings = {
      passed: numPassedTests,
      failed: numFailedTests,
      skipped: numPendingTests + numTodoTests,
      files,
    };
    fs.mkdirSync(path.dirname(timingsFile), { recursive: true });
    fs.writeFileSync(timingsFile, `${JSON.stringify(timings, null, 2)}\n`);
  }
}
module.exports = SummaryReporter;
