import { type HttpTrainerOptions, httpTrainer } from '../../../../functions/adapters/engine/http-trainer';
import { NotFoundError } from '../../../../functions/domain/errors';
import {
  acceptTrainerEvent,
  InvalidTrainerTokenError,
  type RemoteTrainingRequest,
  TRAINER_UNAVAILABLE_ERROR,
  TRAINING_FAILED_ERROR,
  type TrainingTasks,
  trainingFailureMessage,
} from '../../../../functions/domain/profiles/training';

const TRAINING: RemoteTrainingRequest = {
  trainingId: 'prf_1',
  taskToken: 'token-1',
  photoKeys: ['photos/a/1.jpg', 'photos/a/2.jpg'],
  tier: 'fast',
  modelVersion: 'v2',
};

/** A fetch that answers each attempt with the next status, recording what it was sent. */
const scriptedFetch = (statuses: Array<number | Error>) => {
  const sent: Array<{ url: string; headers: Record<string, string>; body: unknown }> = [];
  const fetch = (async (url: URL, init: RequestInit) => {
    sent.push({
      url: String(url),
      headers: init.headers as Record<string, string>,
      body: JSON.parse(String(init.body)),
    });
    const next = statuses.shift() ?? 202;
    if (next instanceof Error) throw next;
    return new Response(next === 202 ? '{"accepted":true}' : 'busy', { status: next });
  }) as unknown as typeof globalThis.fetch;
  return { fetch, sent };
};

const trainer = (fetch: typeof globalThis.fetch, overrides: Partial<HttpTrainerOptions> = {}) => {
  const waits: number[] = [];
  const port = httpTrainer({
    baseUrl: 'https://trainer.example.com/prefix',
    token: 'secret-token',
    callbackUrl: 'https://api.example.com/v2/service/internal/trainer-callback',
    presignPhoto: async (key, seconds) => `https://bucket.example.com/${key}?expires=${seconds}`,
    fetch,
    wait: async (ms) => {
      waits.push(ms);
    },
    random: () => 0.5,
    ...overrides,
  });
  return { port, waits };
};

describe('the HTTP trainer', () => {
  it('posts the training with presigned photo URLs, the task token and the callback URL', async () => {
    const { fetch, sent } = scriptedFetch([202]);
    await trainer(fetch).port.request(TRAINING);
    expect(sent).toEqual([
      {
        url: 'https://trainer.example.com/prefix/v1/trainings',
        headers: expect.objectContaining({ authorization: 'Bearer secret-token', 'content-type': 'application/json' }),
        body: {
          training_id: 'prf_1',
          task_token: 'token-1',
          photos: [
            { url: 'https://bucket.example.com/photos/a/1.jpg?expires=3600' },
            { url: 'https://bucket.example.com/photos/a/2.jpg?expires=3600' },
          ],
          tier: 'fast',
          model_version: 'v2',
          callback_url: 'https://api.example.com/v2/service/internal/trainer-callback',
        },
      },
    ]);
  });

  it('retries 5xx, 429 and network errors with the same body and growing backoff', async () => {
    const { fetch, sent } = scriptedFetch([503, 429, new TypeError('fetch failed'), 202]);
    const { port, waits } = trainer(fetch);
    await port.request(TRAINING);
    expect(sent).toHaveLength(4);
    expect(new Set(sent.map((s) => JSON.stringify(s.body))).size).toBe(1);
    expect(waits).toEqual([750, 1500, 3000]);
  });

  it('gives up after the last attempt with TrainerUnavailable', async () => {
    const { fetch, sent } = scriptedFetch([500, 500, 500, 500]);
    await expect(trainer(fetch).port.request(TRAINING)).rejects.toMatchObject({
      name: TRAINER_UNAVAILABLE_ERROR,
      message: expect.stringContaining('gave up after 4 attempts'),
    });
    expect(sent).toHaveLength(4);
  });

  it('does not retry a 4xx refusal', async () => {
    const { fetch, sent } = scriptedFetch([400]);
    await expect(trainer(fetch).port.request(TRAINING)).rejects.toMatchObject({ name: 'TrainerRefused', status: 400 });
    expect(sent).toHaveLength(1);
  });
});

describe('the trainer callback', () => {
  const recordingTasks = () => {
    const calls: unknown[][] = [];
    const tasks: TrainingTasks = {
      heartbeat: async (...args) => void calls.push(['heartbeat', ...args]),
      succeed: async (...args) => void calls.push(['succeed', ...args]),
      fail: async (...args) => void calls.push(['fail', ...args]),
    };
    return { tasks, calls };
  };

  it('forwards each event to the task named by its token', async () => {
    const { tasks, calls } = recordingTasks();
    const deps = { trainerToken: async () => 'secret-token', tasks };
    await acceptTrainerEvent(deps, 'Bearer secret-token', { taskToken: 't', event: 'heartbeat' });
    await acceptTrainerEvent(deps, 'Bearer secret-token', { taskToken: 't', event: 'succeeded', signature: 'sig' });
    await acceptTrainerEvent(deps, 'Bearer secret-token', {
      taskToken: 't',
      event: 'failed',
      message: 'No face found.',
    });
    expect(calls).toEqual([
      ['heartbeat', 't'],
      ['succeed', 't', { signature: 'sig' }],
      ['fail', 't', TRAINING_FAILED_ERROR, 'No face found.'],
    ]);
  });

  it.each([
    ['a wrong token', 'Bearer other-token'],
    ['a token of another length', 'Bearer secret-token-and-more'],
    ['no Bearer scheme', 'secret-token'],
    ['no header', undefined],
  ])('refuses %s and forwards nothing', async (_name, authorization) => {
    const { tasks, calls } = recordingTasks();
    await expect(
      acceptTrainerEvent({ trainerToken: async () => 'secret-token', tasks }, authorization, {
        taskToken: 't',
        event: 'heartbeat',
      }),
    ).rejects.toBeInstanceOf(InvalidTrainerTokenError);
    expect(calls).toEqual([]);
  });

  it('refuses every callback when no trainer token is configured', async () => {
    const { tasks } = recordingTasks();
    await expect(
      acceptTrainerEvent({ trainerToken: async () => '', tasks }, 'Bearer ', { taskToken: 't', event: 'heartbeat' }),
    ).rejects.toBeInstanceOf(InvalidTrainerTokenError);
  });

  it('passes on that no task waits for the token', async () => {
    const tasks: TrainingTasks = {
      heartbeat: async () => Promise.reject(new NotFoundError('gone')),
      succeed: async () => undefined,
      fail: async () => undefined,
    };
    await expect(
      acceptTrainerEvent({ trainerToken: async () => 'k', tasks }, 'Bearer k', { taskToken: 't', event: 'heartbeat' }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('the message of a failed training', () => {
  it("is the backend's own message when it reported the failure", () => {
    expect(trainingFailureMessage({ Error: TRAINING_FAILED_ERROR, Cause: 'Only 2 of 5 photos show a face' })).toBe(
      'Training failed: Only 2 of 5 photos show a face. Nothing was charged; please create the profile again.',
    );
  });

  it.each([
    ['States.HeartbeatTimeout', /stopped reporting progress/],
    ['States.Timeout', /did not finish in time/],
    [TRAINER_UNAVAILABLE_ERROR, /trainer is unavailable/],
    ['TrainerRefused', /internal error/],
  ])('explains %s without internals', (error, expected) => {
    const message = trainingFailureMessage({ Error: error, Cause: '{"errorMessage":"stack trace"}' });
    expect(message).toMatch(expected);
    expect(message).toMatch(/nothing was charged/i);
    expect(message).not.toContain('stack trace');
  });
});
