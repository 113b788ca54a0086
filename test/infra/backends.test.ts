import { BACKEND_ENV } from '../../lib/constructs/backends';
import { fixtureStack, testApp } from '../fixtures/infra/service-stack';
import { flatTemplate, resourcesOf } from '../fixtures/infra/template-queries';

process.env.CDK_VALIDATION = 'false';

const context = {
  engineUrl: 'https://gpu.example.com',
  trainerUrl: 'https://train.example.com',
  trainerCallbackUrl: 'https://api.example.com/prod/v2/service/internal/trainer-callback',
};

describe('engine and trainer backends', () => {
  it('deploy the sandbox when no backend is configured', () => {
    const template = flatTemplate(fixtureStack());
    for (const fn of Object.values(resourcesOf(template, 'AWS::Lambda::Function'))) {
      expect(Object.keys(fn.Properties.Environment?.Variables ?? {})).not.toContain(BACKEND_ENV.engine);
    }
  });

  it('point every function at the HTTPS backends named in context, with their tokens in Secrets Manager', () => {
    const template = flatTemplate(fixtureStack({}, testApp({ context })));
    const functions = Object.values(resourcesOf(template, 'AWS::Lambda::Function'));
    const withBackends = functions.filter(
      (fn) => fn.Properties.Environment?.Variables?.[BACKEND_ENV.engine] === 'http',
    );
    expect(withBackends.length).toBeGreaterThan(0);
    for (const fn of withBackends) {
      expect(fn.Properties.Environment.Variables).toMatchObject({
        [BACKEND_ENV.engineUrl]: context.engineUrl,
        [BACKEND_ENV.trainer]: 'http',
        [BACKEND_ENV.trainerUrl]: context.trainerUrl,
        [BACKEND_ENV.trainerCallbackUrl]: context.trainerCallbackUrl,
        [BACKEND_ENV.engineTokenSecretArn]: { Ref: expect.stringMatching(/EngineToken/) },
        [BACKEND_ENV.trainerTokenSecretArn]: { Ref: expect.stringMatching(/TrainerToken/) },
      });
    }
    template.resourceCountIs('AWS::SecretsManager::Secret', 3);
    const readsToken = (name: string) =>
      Object.values(resourcesOf(template, 'AWS::IAM::Policy')).filter((policy) =>
        (policy.Properties.PolicyDocument.Statement as Array<{ Action: string | string[]; Resource: unknown }>).some(
          (statement) =>
            [statement.Action].flat().includes('secretsmanager:GetSecretValue') &&
            JSON.stringify(statement.Resource).includes(name),
        ),
      ).length;
    expect(readsToken('EngineToken')).toBeGreaterThan(0);
    expect(readsToken('TrainerToken')).toBeGreaterThan(0);
  });

  it('refuse a trainer without the public callback URL', () => {
    expect(() => fixtureStack({}, testApp({ context: { trainerUrl: context.trainerUrl } }))).toThrow(
      /trainerCallbackUrl/,
    );
  });
});
