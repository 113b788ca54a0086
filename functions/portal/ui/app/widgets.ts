/**
 * The parts the playground and the profile studio share: the tab's API key, a file picker that also takes
 * dropped files, an image with face boxes outlined over it, and a block of code with a copy button.
 */
import { api, currentSession } from './api';
import { fail, h, say } from './dom';
import { apiKey, type Box, ServiceError, service, UPLOAD_TYPES } from './service';

/** The key's first and last characters, enough to tell keys apart and too few to use. */
const masked = (key: string): string => `${key.slice(0, 8)}…${key.slice(-4)}`;

/**
 * Which API key this tab calls the public API with: one pasted, or a new one named "playground" made
 * through the portal's key API. It must be a key of the signed-in account, checked with GET /account.
 * `onReady` runs once a key is in place (and checked, also when the tab already had one).
 */
export const keyPanel = (onReady: () => void): HTMLElement => {
  const section = h('section', { class: 'card', 'aria-labelledby': 'key-title' });
  /** Keeps `candidate` once GET /account says it is a key of the signed-in account; `note` is said then. */
  const use = (candidate: string, note: string | null): void => {
    apiKey.set(candidate);
    service.account().then(
      (account) => {
        if (account.account_id !== currentSession()?.account_id) {
          apiKey.forget();
          say('That key belongs to another account: use a key of this account.', 'error');
          draw();
          return;
        }
        if (note) say(note);
        draw();
        onReady();
      },
      (error: unknown) => {
        apiKey.forget();
        draw();
        fail(error);
      },
    );
  };
  const draw = (): void => {
    const key = apiKey.get();
    const title = h('h3', { id: 'key-title' }, 'API key for this tab');
    if (key) {
      const forget = h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          onclick: () => {
            apiKey.forget();
            say('This tab has forgotten the key.');
            draw();
          },
        },
        'Forget the key',
      );
      section.replaceChildren(
        title,
        h(
          'p',
          { class: 'secret' },
          h(
            'span',
            {},
            'Calls use ',
            h('code', { 'data-testid': 'tab-key', text: masked(key) }),
            ' (kept in this tab only).',
          ),
          forget,
        ),
      );
      return;
    }
    const input = h('input', {
      id: 'paste-key',
      class: 'mono',
      type: 'password',
      autocomplete: 'off',
      placeholder: 'isk_…',
    });
    const form = h(
      'form',
      {
        class: 'inline',
        onsubmit: (event) => {
          event.preventDefault();
          if (input.value.trim()) use(input.value.trim(), 'The key is set for this tab.');
        },
      },
      h('label', { for: 'paste-key' }, 'Paste an API key', input),
      h('button', { type: 'submit' }, 'Use this key'),
      h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          onclick: () => {
            api
              .createKey('playground')
              .then(
                (issued) =>
                  use(
                    issued.api_key,
                    'A key named "playground" was created for this tab; revoke it under API keys when you are done.',
                  ),
                fail,
              );
          },
        },
        'Create a "playground" key',
      ),
    );
    section.replaceChildren(
      title,
      h('p', {
        class: 'muted',
        text: 'These pages call the public API like your code would, charged to this account. The key stays in this tab (sessionStorage) and is never sent to the portal.',
      }),
      form,
    );
  };
  draw();
  // A key the tab already holds is checked again: it may have been revoked, or belong to an earlier session's account.
  const kept = apiKey.get();
  if (kept) use(kept, null);
  return section;
};

/**
 * A labelled file input that also takes files dropped on it; `onFiles` gets the images chosen.
 * Keyboard users reach the input itself; the drop area around it is for the mouse.
 */
export const dropZone = (options: {
  id: string;
  label: string;
  hint: string;
  multiple: boolean;
  onFiles: (files: File[]) => void;
}): HTMLElement => {
  const input = h('input', {
    id: options.id,
    type: 'file',
    accept: UPLOAD_TYPES.join(','),
    multiple: options.multiple,
    'aria-describedby': `${options.id}-hint`,
  });
  const take = (list: FileList | null): void => {
    const files = Array.from(list ?? []);
    if (files.length > 0) options.onFiles(options.multiple ? files : files.slice(0, 1));
  };
  input.addEventListener('change', () => {
    take(input.files);
    input.value = '';
  });
  const zone = h(
    'div',
    { class: 'drop' },
    h('label', { for: options.id }, options.label),
    input,
    h('p', { id: `${options.id}-hint`, class: 'muted', text: options.hint }),
  );
  zone.addEventListener('dragover', (event) => {
    event.preventDefault();
    zone.classList.add('over');
  });
  zone.addEventListener('dragleave', () => zone.classList.remove('over'));
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    zone.classList.remove('over');
    take(event.dataTransfer?.files ?? null);
  });
  return zone;
};

/**
 * An image with boxes outlined over it. Boxes are in the image's own pixels; they are placed in
 * percentages of its natural size, so they follow the image at whatever size it is shown.
 * `size` is the image's pixel size when known (a preflight says it), else read once it has loaded.
 */
export const facesFigure = (options: {
  src: string;
  alt: string;
  boxes: ReadonlyArray<{ box: Box; label: string }>;
  size?: { width: number; height: number };
  caption?: Node;
}): HTMLElement => {
  const image = h('img', { src: options.src, alt: options.alt });
  const frame = h('div', { class: 'faces' }, image);
  const place = (width: number, height: number): void => {
    if (!width || !height) return;
    for (const { box, label } of options.boxes) {
      const outline = h('span', { class: 'face-box', title: label, 'data-testid': 'face-box' });
      outline.style.left = `${(100 * box.x) / width}%`;
      outline.style.top = `${(100 * box.y) / height}%`;
      outline.style.width = `${(100 * box.width) / width}%`;
      outline.style.height = `${(100 * box.height) / height}%`;
      if (label) outline.appendChild(h('span', { class: 'face-label', text: label }));
      frame.appendChild(outline);
    }
  };
  if (options.size) place(options.size.width, options.size.height);
  else if (image.complete && image.naturalWidth > 0) place(image.naturalWidth, image.naturalHeight);
  else image.addEventListener('load', () => place(image.naturalWidth, image.naturalHeight), { once: true });
  return h('figure', { class: 'figure-faces' }, frame, options.caption ? h('figcaption', {}, options.caption) : null);
};

/** Copies through the clipboard API; where there is none (an insecure origin), the selected text with execCommand. */
const copy = (text: string, source: HTMLElement, what: string): void => {
  const selectSource = () => {
    const range = document.createRange();
    range.selectNodeContents(source);
    const selection = getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  };
  (navigator.clipboard ? navigator.clipboard.writeText(text) : Promise.reject(new Error('no clipboard'))).then(
    () => say(`The ${what} is copied.`),
    () => {
      selectSource();
      document.execCommand('copy');
      say(`The ${what} is selected; copy it now.`);
    },
  );
};

/** A titled block of code, kept current by `set`, with a copy button that copies exactly what is shown. */
export const codeBlock = (
  id: string,
  title: string,
  what: string,
): { element: HTMLElement; set(text: string): void } => {
  const code = h('code', { id });
  const pre = h('pre', { class: 'code', tabindex: '0', 'aria-labelledby': `${id}-title` }, code);
  const button = h(
    'button',
    {
      type: 'button',
      class: 'secondary',
      'aria-label': `Copy the ${what}`,
      onclick: () => copy(code.textContent ?? '', code, what),
    },
    'Copy',
  );
  const element = h(
    'div',
    { class: 'code-block' },
    h('div', { class: 'code-head' }, h('h4', { id: `${id}-title`, text: title }), button),
    pre,
  );
  return {
    element,
    set: (text) => {
      code.textContent = text;
    },
  };
};

/** The API's own refusal as shown: status, code and detail, with the request id to quote. */
export const refusal = (error: unknown): HTMLElement => {
  if (!(error instanceof ServiceError))
    return h('div', {
      class: 'notice error',
      role: 'alert',
      text: error instanceof Error ? error.message : String(error),
    });
  return h(
    'div',
    { class: 'notice error', role: 'alert', 'data-testid': 'refusal' },
    h('strong', { text: `HTTP ${error.status}${error.code ? ` · ${error.code}` : ''}` }),
    h('div', { text: error.detail }),
    error.requestId ? h('div', { class: 'muted', text: `request_id ${error.requestId}` }) : null,
  );
};

/** Seconds as words: "about 40 s", "about 3 min". */
export const eta = (seconds: number | null): string =>
  seconds === null ? 'unknown' : seconds < 90 ? `about ${seconds} s` : `about ${Math.round(seconds / 60)} min`;
