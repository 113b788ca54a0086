/**
 * Where the image engine and the trainer run. Without context the stack deploys the sandbox engine and
 * trainer. With CDK context `engineUrl` (and/or `trainerUrl` plus `trainerCallbackUrl`, the public URL of
 * POST /v2/service/internal/trainer-callback) the functions use those HTTPS backends; each gets a
 * generated token in Secrets Manager that the operator shares with the backend.
 *
 *   npx cdk deploy -c engineUrl=https://gpu.example.com -c trainerUrl=https://train.example.com \
 *     -c trainerCallbackUrl=https://<api>/prod/v2/service/internal/trainer-callback
 */
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { BACKEND_ENV } from '../../functions/shared/env-names';
import { acknowledge } from './acknowledgements';

export { BACKEND_ENV };

export interface BackendsProps {
  readonly engineUrl?: string;
  readonly trainerUrl?: string;
  readonly trainerCallbackUrl?: string;
}

export class Backends extends Construct {
  /** Environment every function gets (empty for the sandbox). */
  readonly environment: Record<string, string> = {};
  /** The backends' tokens, present only where that backend is configured. */
  readonly tokens: { engineToken?: secretsmanager.Secret; trainerToken?: secretsmanager.Secret } = {};

  constructor(scope: Construct, id: string, props: BackendsProps) {
    super(scope, id);
    if (props.engineUrl) {
      const token = this.token('EngineToken', 'Bearer token this service sends to the image engine backend');
      this.tokens.engineToken = token;
      Object.assign(this.environment, {
        [BACKEND_ENV.engine]: 'http',
        [BACKEND_ENV.engineUrl]: props.engineUrl,
        [BACKEND_ENV.engineTokenSecretArn]: token.secretArn,
      });
    }
    if (props.trainerUrl) {
      if (!props.trainerCallbackUrl)
        throw new Error(
          'context trainerUrl needs trainerCallbackUrl (the public URL of POST /v2/service/internal/trainer-callback)',
        );
      const token = this.token('TrainerToken', 'Bearer token shared with the training backend, both ways');
      this.tokens.trainerToken = token;
      Object.assign(this.environment, {
        [BACKEND_ENV.trainer]: 'http',
        [BACKEND_ENV.trainerUrl]: props.trainerUrl,
        [BACKEND_ENV.trainerTokenSecretArn]: token.secretArn,
        [BACKEND_ENV.trainerCallbackUrl]: props.trainerCallbackUrl,
      });
    }
  }

  private token(id: string, description: string): secretsmanager.Secret {
    const secret = new secretsmanager.Secret(this, id, {
      description,
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    acknowledge(
      secret,
      'AwsSolutions-SMG4',
      'A token shared with an external backend is rotated together with that backend, by an operator, never automatically.',
    );
    return secret;
  }
}
