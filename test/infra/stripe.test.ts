/**
 * Stripe in the stack: CDK context `stripe=true` makes the two secrets the operator fills (the secret
 * key, the webhook's signing secret), tells the functions where they are, and lets only the functions
 * that open top-ups (the API's and the portal's) read the key and only the webhook function the signing secret.
 */

import { STRIPE_ENV } from '../../functions/deployment/env-names';
import { ServiceStack } from '../../lib/service-stack';
import { testApp } from '../fixtures/infra/service-stack';
import { allowedToFunction, flatTemplate, onlyId, ref, resourcesOf } from '../fixtures/infra/template-queries';

process.env.CDK_VALIDATION = 'false';

const stackWith = (context: Record<string, unknown>) => flatTemplate(new ServiceStack(testApp({ context }), 'Service'));

const template = stackWith({ stripe: 'true' });
const functions = resourcesOf(template, 'AWS::Lambda::Function');
const secretKeyId = onlyId(template, 'AWS::SecretsManager::Secret', {
  Description: 'The Stripe secret key (sk_live_… or sk_test_…) top-ups are made with (docs/billing.md)',
});
const webhookSecretId = onlyId(template, 'AWS::SecretsManager::Secret', {
  Description:
    'The signing secret (whsec_…) of the Stripe webhook endpoint pointed at POST /v2/service/billing/stripe/webhook',
});

const readersOf = (secretId: string) =>
  Object.keys(functions)
    .filter((id) =>
      allowedToFunction(template, id).some(
        ({ action, resource }) => action === 'secretsmanager:GetSecretValue' && resource === ref(secretId),
      ),
    )
    .map((id) => String(functions[id]?.Properties.Description));

describe('Stripe in the stack', () => {
  it('lets only the functions that charge (top-ups, the portal, auto-recharge in the deliverer) read the secret key, and only the webhook function the signing secret', () => {
    expect(readersOf(secretKeyId).sort()).toEqual([
      'ANY /portal, /portal/{proxy+}: the developer portal',
      // It finishes automatic charges whose message was lost or dead-lettered.
      'Closes jobs and trainings whose workflow execution is lost, releasing their reservations',
      // It runs auto-recharge's off-session charges.
      'Delivers signed job callbacks from the callback queue',
      'POST /{v2}/service/account/top-ups',
    ]);
    expect(readersOf(webhookSecretId)).toEqual(['POST /{v2}/service/billing/stripe/webhook']);
  });

  it('names the secrets by ARN, never a key', () => {
    const told = Object.values(functions).filter(
      (fn) => fn.Properties.Environment?.Variables?.[STRIPE_ENV.secretKeySecretArn] !== undefined,
    );
    expect(told.length).toBeGreaterThan(1);
    for (const fn of told) {
      const variables = fn.Properties.Environment?.Variables ?? {};
      expect(variables[STRIPE_ENV.secretKeySecretArn]).toEqual({ Ref: secretKeyId });
      expect(variables[STRIPE_ENV.webhookSecretSecretArn]).toEqual({ Ref: webhookSecretId });
      expect(Object.keys(variables)).not.toEqual(
        expect.arrayContaining([STRIPE_ENV.secretKey, STRIPE_ENV.webhookSecret]),
      );
    }
  });

  it('makes no Stripe secret without the context', () => {
    expect(Object.keys(resourcesOf(stackWith({}), 'AWS::SecretsManager::Secret'))).toHaveLength(1);
  });
});
