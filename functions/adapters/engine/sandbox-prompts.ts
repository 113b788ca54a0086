/**
 * Prompt tokens that make the sandbox engine take the paths a real model takes only rarely, so every
 * path of the API can be exercised without a GPU. A token is a whole word of the prompt (surrounded by
 * whitespace, punctuation or the prompt's ends); anything else in the prompt is left alone. The slow
 * wait comes first, then moderation, then failure, then no image: with several tokens, the first of
 * those that applies wins.
 */
export const SANDBOX_MAX_SLOW_SECONDS = 3600;

export interface SandboxDirectives {
  moderation: boolean;
  noImage: boolean;
  fail: boolean;
  /** How long to wait before working; 0 when the prompt asks for no wait. */
  slowSeconds: number;
}

export interface SandboxPromptToken {
  token: string;
  effect: string;
}

export const SANDBOX_PROMPT_TOKENS: readonly SandboxPromptToken[] = [
  {
    token: 'sandbox:moderation',
    effect:
      'The request is refused by content moderation: 400 `CONTENT_MODERATION`; a job fails with that code. Not charged.',
  },
  {
    token: 'sandbox:no-image',
    effect: 'The model finishes without an image: 422 `NO_IMAGE_GENERATED`; a job fails with that code. Not charged.',
  },
  {
    token: 'sandbox:fail',
    effect: 'The engine fails: 500 `INTERNAL_ERROR`; a job fails and is refunded.',
  },
  {
    token: 'sandbox:slow=<seconds>',
    effect: `The engine waits that long (decimal seconds, e.g. \`sandbox:slow=2.5\`, at most ${SANDBOX_MAX_SLOW_SECONDS}) before working; useful for timeouts and async jobs. The synchronous budget (504) stops the wait.`,
  },
];

const TOKEN = /(?<![\w:.=-])sandbox:(moderation|no-image|fail|slow=(\d+(?:\.\d+)?))(?![\w:=-]|\.\w)/g;

export const parseSandboxPrompt = (prompt: string): SandboxDirectives => {
  const directives: SandboxDirectives = { moderation: false, noImage: false, fail: false, slowSeconds: 0 };
  for (const [, name, seconds] of prompt.matchAll(TOKEN)) {
    if (name === 'moderation') directives.moderation = true;
    else if (name === 'no-image') directives.noImage = true;
    else if (name === 'fail') directives.fail = true;
    else directives.slowSeconds = Math.max(directives.slowSeconds, Math.min(Number(seconds), SANDBOX_MAX_SLOW_SECONDS));
  }
  return directives;
};

/** The token table as Markdown, for the README. */
export const sandboxPromptTableMarkdown = (): string =>
  [
    '| Prompt token | Effect |',
    '|---|---|',
    ...SANDBOX_PROMPT_TOKENS.map(({ token, effect }) => `| \`${token}\` | ${effect} |`),
  ].join('\n');
