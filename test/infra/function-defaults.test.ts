import * as lambda from 'aws-cdk-lib/aws-lambda';
import { ARCHITECTURE, bundlingOptions, IMAGE_NODE_MODULES } from '../../lib/constructs/function-defaults';

describe('the bundling recipe', () => {
  test('functions run on arm64, the build the image modules are installed for', () => {
    expect(ARCHITECTURE).toBe(lambda.Architecture.ARM_64);
  });

  test('image work installs sharp and heic-decode as node modules, for linux-arm64 on glibc', () => {
    expect(IMAGE_NODE_MODULES).toEqual(['sharp', 'heic-decode']);
    expect(bundlingOptions(true)).toMatchObject({
      nodeModules: ['sharp', 'heic-decode'],
      environment: { npm_config_os: 'linux', npm_config_cpu: 'arm64', npm_config_libc: 'glibc' },
    });
  });

  test('other functions install no node modules and change no npm setting', () => {
    const options = bundlingOptions(false);
    expect(options.nodeModules).toBeUndefined();
    expect(options.environment).toBeUndefined();
  });

  test('every function leaves the AWS SDK to the runtime and ships a source map', () => {
    for (const images of [true, false]) {
      expect(bundlingOptions(images)).toMatchObject({ externalModules: ['@aws-sdk/*'], sourceMap: true });
    }
  });
});
