/**
 * The deployment's route table and aliases (functions/domain/catalog/model-routes.ts), read at cold start:
 * what a good table becomes, and the message an operator reads for each kind of mistake.
 */

import { ROUTE_TARGETS } from '../../../../functions/deployment/providers';
import { BASE_MODELS } from '../../../../functions/domain/catalog/catalog';
import {
  engineNameOf,
  ModelRoutesError,
  parseModelAliases,
  parseModelRoutes as parseRoutes,
  routedProviders,
} from '../../../../functions/domain/catalog/model-routes';

const parseModelRoutes = (text: string | undefined, name?: string) => parseRoutes(text, ROUTE_TARGETS, name);

const KNOWN = BASE_MODELS.map((model) => model.id).join(', ');

describe('MODEL_ROUTES', () => {
  it('reads each route as provider and model', () => {
    expect(
      parseModelRoutes(
        '{"base-b-2":"openai:gpt-image-2","base-c-2":"gemini:gemini-3.1-flash-image","base-a-2":"fal:fal-ai/flux-2"}',
      ),
    ).toEqual({
      'base-b-2': { provider: 'openai', model: 'gpt-image-2' },
      'base-c-2': { provider: 'gemini', model: 'gemini-3.1-flash-image' },
      'base-a-2': { provider: 'fal', model: 'fal-ai/flux-2' },
    });
  });

  it('keeps everything after the first colon as the model, trimmed', () => {
    expect(parseModelRoutes('{"base-a-2":"fal: fal-ai/flux:dev "}')).toEqual({
      'base-a-2': { provider: 'fal', model: 'fal-ai/flux:dev' },
    });
  });

  it.each(['base-b-2', 'base-b-2.5-flare', 'base-b-2.5-sunburst'])(
    'refuses a token-metered model (%s) on a provider that reports no tokens, naming those that do',
    (id) => {
      expect(() => parseModelRoutes(JSON.stringify({ [id]: 'fal:fal-ai/flux-2' }))).toThrow(
        new ModelRoutesError(
          `MODEL_ROUTES: "${id}" is priced by tokens, but provider "fal" reports no token usage; route it to one that does (openai, gemini, http)`,
        ),
      );
    },
  );

  it('refuses it at synth too, under the context name', () => {
    expect(() => parseModelRoutes('{"base-b-2":"fal:x"}', 'context modelRoutes')).toThrow(
      /^context modelRoutes: "base-b-2" is priced by tokens/,
    );
  });

  it('lets a token-metered model run where tokens are reported, and a flat one anywhere', () => {
    expect(parseModelRoutes('{"base-b-2":"openai:gpt-image-2","base-c-2":"fal:fal-ai/nano-banana-2"}')).toEqual({
      'base-b-2': { provider: 'openai', model: 'gpt-image-2' },
      'base-c-2': { provider: 'fal', model: 'fal-ai/nano-banana-2' },
    });
    expect(parseModelRoutes('{"base-b-2.5-flare":"http"}')).toEqual({
      'base-b-2.5-flare': { provider: 'http', model: '' },
    });
  });

  it('lets the HTTP backend stand without a model name', () => {
    expect(parseModelRoutes('{"base-d-2":"http"}')).toEqual({ 'base-d-2': { provider: 'http', model: '' } });
  });

  it.each([undefined, '', '   '])('is empty when unset (%p)', (text) => {
    expect(parseModelRoutes(text)).toEqual({});
  });

  it('names an unknown model id and lists the known ones', () => {
    expect(() => parseModelRoutes('{"base-z-9":"openai:gpt-image-2"}')).toThrow(
      new ModelRoutesError(`MODEL_ROUTES: "base-z-9" is not a base model (known: ${KNOWN})`),
    );
  });

  it('names an unknown provider and lists the known ones', () => {
    expect(() => parseModelRoutes('{"base-b-2":"azure:dall-e-3"}')).toThrow(
      'MODEL_ROUTES: "base-b-2" names provider "azure", which is not one of openai, gemini, fal, http',
    );
  });

  it.each(['openai', 'openai:', 'openai:  '])('asks for the provider’s model when it is missing (%p)', (target) => {
    expect(() => parseModelRoutes(JSON.stringify({ 'base-b-2': target }))).toThrow(
      'MODEL_ROUTES: the route of "base-b-2" must name the provider\'s model, e.g. "openai:…"',
    );
  });

  it('wants a string route', () => {
    expect(() => parseModelRoutes('{"base-b-2":{"provider":"openai"}}')).toThrow(
      'MODEL_ROUTES: the route of "base-b-2" must be a string "provider:model"',
    );
  });

  it('says when the text is not JSON', () => {
    expect(() => parseModelRoutes('{base-b-2: openai}')).toThrow(/^MODEL_ROUTES is not JSON: /);
  });

  it.each(['["openai:gpt-image-2"]', 'null', '"openai:gpt-image-2"', '3'])(
    'says when the JSON is not an object (%s)',
    (text) => {
      expect(() => parseModelRoutes(text)).toThrow(
        'MODEL_ROUTES must be a JSON object of strings, e.g. {"base-b-2":"openai:gpt-image-2"}',
      );
    },
  );

  it('names the setting it was given in its messages', () => {
    expect(() => parseModelRoutes('{"nope":"fal:x"}', 'modelRoutes')).toThrow(/^modelRoutes: "nope"/);
  });

  it('fails with a ModelRoutesError', () => {
    expect(() => parseModelRoutes('{"base-b-2":"azure:x"}')).toThrow(ModelRoutesError);
  });
});

describe('MODEL_ALIASES', () => {
  it('maps public names to catalog ids', () => {
    expect(parseModelAliases('{"nb2":"base-c-2","gpt-image-2":"base-b-2"}')).toEqual({
      nb2: 'base-c-2',
      'gpt-image-2': 'base-b-2',
    });
  });

  it('is empty when unset', () => {
    expect(parseModelAliases(undefined)).toEqual({});
  });

  it('refuses an alias to an unknown model', () => {
    expect(() => parseModelAliases('{"nb2":"base-z-9"}')).toThrow(
      new ModelRoutesError(`MODEL_ALIASES: "nb2" must name a base model (known: ${KNOWN})`),
    );
  });

  it('refuses an alias whose target is not a string', () => {
    expect(() => parseModelAliases('{"nb2":2}')).toThrow(
      `MODEL_ALIASES: "nb2" must name a base model (known: ${KNOWN})`,
    );
  });

  it('refuses an alias that shadows a catalog id', () => {
    expect(() => parseModelAliases('{"base-b-2":"base-c-2"}')).toThrow(
      'MODEL_ALIASES: "base-b-2" is already a base model id',
    );
  });

  it('says when the text is not a JSON object', () => {
    expect(() => parseModelAliases('[]')).toThrow(/^MODEL_ALIASES must be a JSON object/);
    expect(() => parseModelAliases('nb2=base-c-2')).toThrow(/^MODEL_ALIASES is not JSON: /);
  });
});

describe('what a route table uses', () => {
  const routes = parseModelRoutes(
    '{"base-b-2":"openai:gpt-image-2","base-b-2.5-flare":"openai:gpt-image-2.5","base-a-2":"fal:fal-ai/flux-2","base-d-2":"http"}',
  );

  it('lists each provider once', () => {
    expect(routedProviders(routes)).toEqual(['openai', 'fal', 'http']);
    expect(routedProviders({})).toEqual([]);
  });

  it('names a routed model’s engine as provider:model', () => {
    expect(engineNameOf(routes, 'base-b-2', 'sandbox')).toBe('openai:gpt-image-2');
  });

  it('names the HTTP backend by its provider alone', () => {
    expect(engineNameOf(routes, 'base-d-2', 'sandbox')).toBe('http');
  });

  it('names the default engine for a model without a route', () => {
    expect(engineNameOf(routes, 'base-c-2', 'sandbox')).toBe('sandbox');
  });
});
