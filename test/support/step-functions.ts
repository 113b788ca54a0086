/** The local Step Functions emulator with an SDK client of it, for the tests of the emulator itself. */
import { SFNClient } from '@aws-sdk/client-sfn';
import { type LocalStepFunctions, startLocalStepFunctions } from '../../bin/local-aws/step-functions';

export interface LocalSfn {
  sfn: LocalStepFunctions;
  client: SFNClient;
  /** Destroys the client and stops the emulator. */
  close(): Promise<void>;
}

/** Starts the emulator on `options` and makes a client of its endpoint, as a caller on AWS would. */
export const startLocalSfn = async (options: Parameters<typeof startLocalStepFunctions>[0]): Promise<LocalSfn> => {
  const sfn = await startLocalStepFunctions(options);
  const client = new SFNClient({
    endpoint: sfn.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  return {
    sfn,
    client,
    close: async () => {
      client.destroy();
      await sfn.close();
    },
  };
};
