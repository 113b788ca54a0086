/**
 * Hosted providers in the stack: a route table in CDK context (modelRoutes) makes one Secrets Manager
 * secret per routed provider, tells every function the routes, and lets exactly the functions that call
 * a provider read its key (the image routes and RunEngine call them all; the cancel route stops fal work).
 */

import { PROVIDER_ENV } from '../../functions/deployment/env-names';
import { HOSTED_PROVIDERS, type HostedProviderId } from '../../functions/deployment/providers';
import { ROUTES } from '../../functions/deployment/routes';
import { ABANDONED_WORK } from '../../functions/maintenance/definitions';
import { WORKFLOWS } from '../../functions/workflows/definitions';
import { ServiceStack } from '../../lib/service-stack';
import { testApp } from '../fixtures/infra/service-stack';
import { allowedToFunction, flatTemplate, onlyId, ref, resourcesOf } from '../fixtures/infra/template-queries';

process.env.CDK_VALIDATION = 'false';

const modelRoutes = {
  'base-b-2': 'openai:gpt-image-2',
  'base-c-2': 'gemini:gemini-3.1-flash-image',
  'base-a-2': 'fal:fal-ai/flux-2',
};

const stackWith = (context: Record<string, unknown>) => flatTemplate(new ServiceStack(testApp({ context }), 'Service'));

const template = stackWith({ modelRoutes, modelAliases: { nb2: 'base-c-2' } });
const functions = resourcesOf(template, 'AWS::Lambda::Function');

const secretIdOf = (provider: HostedProviderId) =>
  onlyId(template, 'AWS::SecretsManager::Secret', {
    Description: `The ${provider} API key this service calls its models with; the operator puts the key here (docs/providers.md)`,
  });

/** The functions whose table row grants the provider's key, found by the description the stack gives each. */
const expectedReaders = (provider: HostedProviderId): string[] => {
  const name = HOSTED_PROVIDERS[provider].key.secret;
  const descriptions = new Set([
    ...ROUTES.filter((route) => route.access.secrets?.includes(name)).map(
      (route) => `${route.method} /{v2,v1}/service${route.path}`,
    ),
    ...Object.entries(WORKFLOWS).flatMap(([workflow, { tasks }]) =>
      Object.entries(tasks)
        .filter(([, task]) => task.access.secrets?.includes(name))
        .map(([variable]) => `${workflow} workflow: ${variable}`),
    ),
    ...(ABANDONED_WORK.access.secrets.includes(name)
      ? ['Closes jobs and trainings whose workflow execution is lost, releasing their reservations']
      : []),
  ]);
  return Object.keys(functions).filter((id) => descriptions.has(String(functions[id].Properties.Description)));
};

describe('hosted providers in the stack', () => {
  it("pins fal's webhook user with context falUserId, and pins nothing without it", () => {
    const pinned = resourcesOf(stackWith({ modelRoutes, falUserId: 'user-123' }), 'AWS::Lambda::Function');
    const variables = Object.values(pinned).map((fn) => fn.Properties.Environment?.Variables ?? {});
    expect(variables.filter((vars) => vars.FAL_USER_ID === 'user-123').length).toBeGreaterThan(0);
    expect(Object.values(functions).some((fn) => fn.Properties.Environment?.Variables?.FAL_USER_ID)).toBe(false);
  });

  it('makes one secret per routed provider, beside the download-token secret', () => {
    expect(Object.keys(resourcesOf(template, 'AWS::SecretsManager::Secret')).sort()).toEqual(
      [...(['openai', 'gemini', 'fal'] as const).map(secretIdOf), expect.stringMatching(/DownloadToken/)].sort(),
    );
  });

  it('tells every function but the callback deliverer the route table, the aliases and the secrets by ARN, never a key', () => {
    const told = Object.values(functions).filter(
      (fn) => fn.Properties.Description !== 'Delivers signed job callbacks from the callback queue',
    );
    expect(told.length).toBe(Object.keys(functions).length - 1);
    for (const fn of told) {
      const variables = fn.Properties.Environment?.Variables ?? {};
      expect(JSON.parse(variables[PROVIDER_ENV.modelRoutes])).toEqual(modelRoutes);
      expect(JSON.parse(variables[PROVIDER_ENV.modelAliases])).toEqual({ nb2: 'base-c-2' });
      expect(variables[HOSTED_PROVIDERS.openai.key.secretArnEnv]).toEqual({ Ref: secretIdOf('openai') });
      expect(variables[HOSTED_PROVIDERS.fal.key.secretArnEnv]).toEqual({ Ref: secretIdOf('fal') });
      expect(Object.keys(variables)).not.toEqual(expect.arrayContaining(['OPENAI_API_KEY']));
    }
  });

  it.each(['openai', 'gemini', 'fal'] as const)('lets exactly the functions that call %s read its key', (provider) => {
    const readers = expectedReaders(provider);
    // The four image routes and RunEngine; for fal (queued) also what ends a job and stops its ticket's work:
    // the cancel route, ReleaseCharge and the sweep of abandoned work; and what waits for fal's word: AwaitEngine
    // (a status check when the webhook is late) and the webhook route (a cancel of a request no job holds); and
    // fal's LoRA trainer (TRAINER=fal): SubmitLoraTraining, CheckLoraTraining and the profile delete route.
    expect(readers).toHaveLength(provider === 'fal' ? 13 : 5);
    for (const functionId of Object.keys(functions)) {
      const reads = allowedToFunction(template, functionId).some(
        ({ action, resource }) => action === 'secretsmanager:GetSecretValue' && resource === ref(secretIdOf(provider)),
      );
      expect({ functionId, reads }).toEqual({ functionId, reads: readers.includes(functionId) });
    }
  });

  it('makes no provider secret without routes', () => {
    const plain = stackWith({});
    expect(Object.keys(resourcesOf(plain, 'AWS::SecretsManager::Secret'))).toHaveLength(1);
  });

  it("refuses a route below its provider's list price unless context allowRoutesBelowCost, which the functions then get", () => {
    const belowCost = { 'base-c-2': 'fal:fal-ai/nano-banana-2' };
    expect(() => stackWith({ modelRoutes: belowCost })).toThrow(
      /context modelRoutes: "base-c-2" on fal:fal-ai\/nano-banana-2 sells at or below .*context allowRoutesBelowCost=true/,
    );
    const allowed = stackWith({ modelRoutes: belowCost, allowRoutesBelowCost: 'true' });
    const variables = Object.values(resourcesOf(allowed, 'AWS::Lambda::Function')).map(
      (fn) => (fn.Properties as { Environment?: { Variables?: Record<string, unknown> } }).Environment?.Variables ?? {},
    );
    expect(variables.some((vars) => vars[PROVIDER_ENV.allowRoutesBelowCost] === 'true')).toBe(true);
  });

  it('context trainer=fal: the functions train on fal; steps listing above the Full Train price stop the synth unless allowed', () => {
    const variablesOf = (stack: ReturnType<typeof stackWith>) =>
      Object.values(resourcesOf(stack, 'AWS::Lambda::Function')).map(
        (fn) =>
          (fn.Properties as { Environment?: { Variables?: Record<string, unknown> } }).Environment?.Variables ?? {},
      );
    // Every function told the routes is told the trainer (the callback deliverer is told neither).
    const trained = variablesOf(stackWith({ modelRoutes, trainer: 'fal' })).filter(
      (vars) => vars[PROVIDER_ENV.modelRoutes] !== undefined,
    );
    expect(trained.length).toBe(Object.keys(functions).length - 1);
    expect(trained.every((vars) => vars.TRAINER === 'fal' && vars.LORA_TRAINER_STEPS === '300')).toBe(true);
    // 500 steps list at 3.20 USD, above the 2.90 USD Full Train price.
    expect(() => stackWith({ modelRoutes, trainer: 'fal', loraTrainerSteps: '500' })).toThrow(
      /context loraTrainerSteps=500: the trainer lists 3\.20 USD a training, more than the Full Train price \(2\.90 USD\).*context allowTrainingBelowCost=true/,
    );
    const allowed = variablesOf(
      stackWith({ modelRoutes, trainer: 'fal', loraTrainerSteps: '500', allowTrainingBelowCost: 'true' }),
    ).filter((vars) => vars[PROVIDER_ENV.modelRoutes] !== undefined);
    expect(
      allowed.every((vars) => vars.ALLOW_TRAINING_BELOW_COST === 'true' && vars.LORA_TRAINER_STEPS === '500'),
    ).toBe(true);
    expect(() => stackWith({ trainer: 'fal' })).toThrow(/context trainer=fal needs a model routed to fal/);
    expect(() => stackWith({ modelRoutes, trainer: 'replicate' })).toThrow(
      /context trainer: one of fal, not replicate/,
    );
  });

  it('refuses a route table that names an unknown model or provider', () => {
    expect(() => stackWith({ modelRoutes: { 'base-z-9': 'openai:gpt-image-2' } })).toThrow(
      /context modelRoutes: "base-z-9" is not a base model/,
    );
    expect(() => stackWith({ modelRoutes: JSON.stringify({ 'base-b-2': 'replicate:x' }) })).toThrow(
      /names provider "replicate"/,
    );
  });

  it('refuses a token-metered model routed to a provider that reports no tokens', () => {
    expect(() => stackWith({ modelRoutes: { 'base-b-2': 'fal:fal-ai/flux-2' } })).toThrow(
      /context modelRoutes: "base-b-2" is priced by tokens, but provider "fal" reports no token usage/,
    );
  });
});
