/**
 * The playground: one image request built from a form (operation, the base model's own fields from
 * GET /models, READY profiles as `profile_ids` or `[[id]]`, a prompt, inputs sent as direct uploads, the
 * number of outputs, sync or async), its least cost before it runs, the same request as curl and as a
 * TypeScript client call, and its answer: outputs with the recognised faces outlined, `known_subjects`,
 * the cost reserved and final, or the API's refusal as it was given. It is an ordinary API call of the
 * account, made with the tab's key (service.ts).
 */
import { api } from '../api';
import { fail, h } from '../dom';
import { page } from '../layout';
import {
  type BaseModel,
  type ImageResult,
  type JobStatus,
  type ModelList,
  type Operation,
  service,
  serviceUrl,
  uploadFile,
} from '../service';
import type { Profile } from '../types';
import { codeBlock, dropZone, eta, facesFigure, keyPanel, refusal } from '../widgets';

const OPERATIONS: readonly Operation[] = ['generate', 'edit', 'enhance', 'remix'];

/** The image inputs of each operation: the body field, its label, and how many it takes. */
interface Slot {
  field: 'images' | 'image' | 'input_image' | 'reference_image';
  label: string;
  max: number;
}
const SLOTS: Readonly<Record<Operation, readonly Slot[]>> = {
  generate: [],
  edit: [{ field: 'images', label: 'Input images (1 to 10)', max: 10 }],
  enhance: [{ field: 'image', label: 'Image to enhance', max: 1 }],
  remix: [
    { field: 'input_image', label: 'Input image', max: 1 },
    { field: 'reference_image', label: 'Style reference image', max: 1 },
  ],
};

/** A chosen file: its preview, and its `upload:` reference once the direct upload is done. */
interface Picked {
  name: string;
  preview: string;
  reference: string | null;
  failed: string | null;
  /** width / height, read from the preview (what `aspect_ratio: auto` follows). */
  aspect: number | null;
}

const LONG_EDGE_PX = { '1K': 1024, '2K': 2048, '4K': 4096 } as const;
const POLL_MS = 1000;

/** Micro-USD as dollars, two decimals at least and as many as the amount needs (0.015). */
const usd = (micros: number): string => {
  const fixed = (micros / 1e6).toFixed(6);
  return fixed.replace(/(\.\d\d\d*?)0+$/, '$1');
};

const roundTo16 = (px: number): number => Math.max(16, Math.round(px / 16) * 16);

/** The output's pixels, as the service decides them (output-spec.ts), for the megapixel floor. */
const outputPixels = (resolution: string, aspectRatio: string, size: string, inputAspect: number | null): number => {
  const exact = /^(\d+)x(\d+)$/.exec(size);
  if (exact) return Number(exact[1]) * Number(exact[2]);
  const longEdge = LONG_EDGE_PX[resolution as keyof typeof LONG_EDGE_PX] ?? 1024;
  const [w, hgt] = aspectRatio.split(':').map(Number);
  const ratio = aspectRatio === 'auto' ? (inputAspect ?? 1) : w / hgt;
  return ratio >= 1 ? longEdge * roundTo16(longEdge / ratio) : roundTo16(longEdge * ratio) * longEdge;
};

/** The image's media type from its first base64 characters (a sync `bytes` answer carries no type). */
const dataUri = (base64: string): string => {
  const type = base64.startsWith('/9j/')
    ? 'image/jpeg'
    : base64.startsWith('iVBOR')
      ? 'image/png'
      : base64.startsWith('UklGR')
        ? 'image/webp'
        : 'application/octet-stream';
  return `data:${type};base64,${base64}`;
};

const quote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

const option = (value: string, label: string, selected: boolean): HTMLOptionElement =>
  h('option', { value, selected }, label);

export const playgroundView = (): void => {
  const main = page('Playground', '#/playground');
  let models: ModelList | null = null;
  let profiles: Profile[] = [];
  let operation: Operation = 'generate';
  const inputs = new Map<Slot['field'], Picked[]>();

  const form = h('form', { class: 'playground', 'aria-labelledby': 'request-title' });
  const estimate = h('p', { id: 'estimate', class: 'estimate', 'aria-live': 'polite' });
  const curl = codeBlock('curl-code', 'curl', 'curl command');
  const typescript = codeBlock('ts-code', 'TypeScript client', 'TypeScript call');
  const runButton = h('button', { type: 'submit', form: 'playground-form' }, 'Run');
  const runNote = h('span', { class: 'muted', 'aria-live': 'polite' });
  const results = h('section', { class: 'card results', 'aria-labelledby': 'result-title', hidden: true });
  form.id = 'playground-form';

  // Controls that stay while the operation changes: the prompt, the count, sync or async.
  const prompt = h('textarea', { id: 'prompt', name: 'prompt', rows: 3, maxlength: 5000 });
  const count = h('input', { id: 'count', type: 'number', min: 1, max: 4, value: '1', required: true });
  const mode = h(
    'select',
    { id: 'mode' },
    option('sync', 'synchronous', true),
    option('async', 'async job (poll)', false),
  );
  const responseMode = h(
    'select',
    { id: 'response-mode' },
    option('bytes', 'bytes (base64)', true),
    option('urls', 'urls (links)', false),
  );
  const operationSelect = h('select', { id: 'operation' }, ...OPERATIONS.map((op) => option(op, op, op === operation)));
  // What depends on the operation and the model, drawn again when they change.
  const modelPart = h('div', { class: 'grid' });
  const profilePart = h('fieldset', { class: 'profiles' });
  const inputPart = h('div');
  let modelSelect: HTMLSelectElement | null = null;
  let resolutionSelect: HTMLSelectElement | null = null;
  let aspectSelect: HTMLSelectElement | null = null;
  let qualitySelect: HTMLSelectElement | null = null;
  let sizeInput: HTMLInputElement | null = null;

  const chosenModel = (): BaseModel | undefined => models?.models.find((model) => model.id === modelSelect?.value);
  const pinned = (): boolean => operation === 'enhance' || operation === 'remix';
  const checkedProfiles = (): string[] =>
    Array.from(profilePart.querySelectorAll<HTMLInputElement>('input[type=checkbox]:checked')).map((box) => box.value);
  const pending = (): Picked[] => [...inputs.values()].flat().filter((item) => item.reference === null);

  /** The request body exactly as it will be sent (and as curl and the client call show it). */
  const body = (): Record<string, unknown> => {
    const request: Record<string, unknown> = {};
    const model = chosenModel();
    if (!pinned() && model) {
      request.base_model = model.id;
      const size = sizeInput?.value.trim() ?? '';
      if (size) request.size = size;
      else {
        if (resolutionSelect) request.resolution = resolutionSelect.value;
        if (aspectSelect) request.aspect_ratio = aspectSelect.value;
      }
      if (qualitySelect) request.quality = qualitySelect.value;
    }
    if (prompt.value.trim() || operation === 'generate') request.prompt = prompt.value;
    for (const slot of SLOTS[operation]) {
      const refs = (inputs.get(slot.field) ?? []).map((item) => item.reference ?? `(uploading ${item.name})`);
      if (slot.max > 1) request[slot.field] = refs;
      else if (refs[0]) request[slot.field] = refs[0];
    }
    const ids = operation === 'generate' ? [] : checkedProfiles();
    if (ids.length > 0) request.profile_ids = ids;
    const n = Number(count.value);
    if (Number.isInteger(n) && n !== 1) request.num_output_images = n;
    if (mode.value === 'async') request.async = true;
    else if (responseMode.value === 'urls') request.response_mode = 'urls';
    return request;
  };

  /** The least the request costs, as the service reserves it (pricing.ts: floorPrice). */
  const leastCost = (): string => {
    if (!models) return '';
    const n = Math.min(4, Math.max(1, Math.round(Number(count.value)) || 1));
    if (pinned()) {
      const { per_image: perImage, per_image_with_profile: withProfile } = models.pinned;
      return `This request costs at least ${usd(perImage.micro_usd * n)} USD (${perImage.usd} per image × ${n}, ${models.pinned.base_model} at ${models.pinned.resolution}); an output in which a profile is recognised costs ${withProfile.usd}.`;
    }
    const model = chosenModel();
    if (!model) return '';
    const pricing = model.pricing;
    const size = sizeInput?.value.trim() ?? '';
    const resolution = size ? '1K' : (resolutionSelect?.value ?? '1K');
    const surcharge = `; each recognised subject adds ${pricing.identity_surcharge.usd}`;
    if (pricing.metering === 'flat') {
      const perImage = pricing.per_image[resolution as '1K' | '2K' | '4K'];
      if (!perImage) return '';
      return `This request costs at least ${usd(perImage.micro_usd * n)} USD (${perImage.usd} per ${resolution} image × ${n})${surcharge}.`;
    }
    if (pricing.metering === 'tokens') {
      return `This request costs at least ${usd(pricing.floor_per_image.micro_usd * n)} USD (the floor of ${pricing.floor_per_image.usd} per image × ${n}; ${pricing.per_thousand_output_tokens.usd} per 1000 output tokens above it)${surcharge}.`;
    }
    const firstInput = [...inputs.values()].flat()[0]?.aspect ?? null;
    const pixels = outputPixels(resolution, aspectSelect?.value ?? '4:3', size, firstInput);
    const sizeMicros = Math.ceil((pixels * pricing.per_megapixel.micro_usd) / 1e6 - 1e-6);
    const perImage = Math.max(pricing.floor_per_image.micro_usd, sizeMicros);
    return `This request costs at least ${usd(perImage * n)} USD (${usd(perImage)} per image of ${(pixels / 1e6).toFixed(2)} MP at ${pricing.per_megapixel.usd} per megapixel, floor ${pricing.floor_per_image.usd}, × ${n})${surcharge}.`;
  };

  /** curl and the TypeScript client, both with the key as a placeholder and the real body. */
  const showCode = (): void => {
    const request = body();
    const url = `${serviceUrl()}/${operation}`;
    const lines = [
      `curl -s -X POST ${quote(url)} \\`,
      `  -H "X-API-Key: $API_KEY" -H 'Content-Type: application/json' \\`,
      `  -d ${quote(JSON.stringify(request))}`,
    ];
    if (request.async)
      lines.push(`# then poll: curl -s -H "X-API-Key: $API_KEY" ${quote(`${serviceUrl()}/jobs/`)}<job_id>`);
    curl.set(lines.join('\n'));
    const baseUrl = serviceUrl().replace(/\/v2\/service$/, '');
    const call = `await client.${operation}(${JSON.stringify(request, null, 2)})`;
    typescript.set(
      [
        "import { createClient } from '@identity-image-service/client';",
        '',
        `const client = createClient({ baseUrl: ${JSON.stringify(baseUrl)}, apiKey: process.env.API_KEY! });`,
        ...(request.async
          ? [
              `const job = ${call};`,
              'const done = await client.waitForJob(job.job_id);',
              'console.log(done.status, done.cost, done.result?.known_subjects);',
            ]
          : [`const result = ${call};`, 'console.log(result.known_subjects, result.recognized_faces);']),
      ].join('\n'),
    );
  };

  const refresh = (): void => {
    estimate.textContent = leastCost();
    showCode();
    const waiting = pending();
    const failed = waiting.filter((item) => item.failed !== null);
    runButton.disabled = waiting.length > 0;
    runNote.textContent =
      failed.length > 0
        ? `Remove the inputs that did not upload (${failed.map((item) => item.name).join(', ')}).`
        : waiting.length > 0
          ? `Uploading ${waiting.length} input(s)…`
          : '';
  };

  const labelled = (id: string, text: string, control: HTMLElement, hint?: string): HTMLElement =>
    h(
      'div',
      { class: 'control' },
      h('label', { for: id, text }),
      control,
      hint ? h('p', { class: 'muted', text: hint }) : null,
    );

  /** The base model's own fields: only those it accepts. */
  const drawModelFields = (): void => {
    if (!models) return;
    if (pinned()) {
      modelSelect = resolutionSelect = aspectSelect = qualitySelect = null;
      sizeInput = null;
      modelPart.replaceChildren(
        h('p', {
          class: 'muted',
          text: `${operation} is pinned to ${models.pinned.base_model} at ${models.pinned.resolution} (served by: ${models.pinned.served_by}); it takes no model, resolution or aspect ratio.`,
        }),
      );
      return;
    }
    const usable = models.models.filter((model) => (model.operations as string[]).includes(operation));
    const previous = modelSelect?.value;
    const current = usable.find((model) => model.id === previous) ?? usable.find((model) => model.default) ?? usable[0];
    modelSelect = h(
      'select',
      { id: 'base-model' },
      ...usable.map((model) =>
        option(model.id, `${model.id}${model.default ? ' (default)' : ''} · ${model.served_by}`, model === current),
      ),
    );
    const model = current;
    resolutionSelect = h(
      'select',
      { id: 'resolution' },
      ...(model?.resolutions ?? []).map((value, index) => option(value, value, index === 0)),
    );
    aspectSelect = h(
      'select',
      { id: 'aspect-ratio' },
      ...(model?.aspect_ratios ?? []).map((value) => option(value, value, value === model?.default_aspect_ratio)),
    );
    qualitySelect =
      model && model.qualities.length > 0
        ? h('select', { id: 'quality' }, ...model.qualities.map((value) => option(value, value, value === 'auto')))
        : null;
    sizeInput = model?.size
      ? h('input', {
          id: 'size',
          type: 'text',
          inputmode: 'numeric',
          pattern: '[1-9][0-9]{0,3}x[1-9][0-9]{0,3}',
          placeholder: 'e.g. 1024x768',
        })
      : null;
    const serving =
      model?.served_by === 'sandbox'
        ? ' Served by the sandbox engine here: images made locally, not by a real model.'
        : '';
    modelPart.replaceChildren(
      labelled('base-model', 'Base model', modelSelect, `Metering: ${model?.pricing.metering ?? ''}.${serving}`),
      labelled('resolution', 'Resolution', resolutionSelect),
      labelled('aspect-ratio', 'Aspect ratio', aspectSelect),
      ...(qualitySelect ? [labelled('quality', 'Quality', qualitySelect)] : []),
      ...(sizeInput
        ? [
            labelled(
              'size',
              'Exact size (optional)',
              sizeInput,
              'Width x height in pixels; replaces the 1K tier and the aspect ratio.',
            ),
          ]
        : []),
    );
    modelSelect.addEventListener('change', () => {
      drawModelFields();
      refresh();
    });
  };

  /** READY profiles: candidates (`profile_ids`) or `[[id]]` in the prompt, as the operation allows. */
  const drawProfiles = (): void => {
    const ready = profiles.filter((profile) => profile.status === 'READY');
    const legend = h('legend', {}, 'Profiles (READY)');
    if (ready.length === 0) {
      profilePart.replaceChildren(
        legend,
        h(
          'p',
          { class: 'muted' },
          'No READY profile yet: ',
          h('a', { href: '#/studio' }, 'train one in the profile studio'),
          '.',
        ),
      );
      return;
    }
    const howTo =
      operation === 'generate'
        ? 'generate names profiles in the prompt only: insert [[id]] where the subject goes.'
        : operation === 'edit'
          ? 'Tick a profile to send it in profile_ids, or insert [[id]] into the prompt.'
          : `Tick a profile to send it in profile_ids: ${operation} keeps its face.`;
    profilePart.replaceChildren(
      legend,
      h('p', { class: 'muted', text: howTo }),
      h(
        'ul',
        { class: 'profile-list' },
        ...ready.map((profile) => {
          const name = profile.tag ? `${profile.tag} (${profile.profile_id})` : profile.profile_id;
          const insert = h(
            'button',
            {
              type: 'button',
              class: 'secondary',
              'aria-label': `Insert [[${profile.profile_id}]] into the prompt`,
              onclick: () => {
                const token = `[[${profile.profile_id}]]`;
                const at = prompt.selectionStart ?? prompt.value.length;
                const before = prompt.value.slice(0, at);
                const spaced = before && !/\s$/.test(before) ? ` ${token}` : token;
                prompt.value = `${before}${spaced}${prompt.value.slice(at)}`;
                prompt.focus();
                refresh();
              },
            },
            'Insert [[id]]',
          );
          return h(
            'li',
            {},
            profile.has_picture
              ? h('img', { class: 'picture small', src: api.profilePictureUrl(profile.profile_id), alt: '' })
              : null,
            operation === 'generate'
              ? h('span', {}, name)
              : h(
                  'label',
                  { class: 'check' },
                  h('input', { type: 'checkbox', value: profile.profile_id }),
                  `Use ${name}`,
                ),
            operation === 'edit' || operation === 'generate' ? insert : null,
          );
        }),
      ),
    );
  };

  /** One drop zone per image input of the operation; each file is uploaded as soon as it is chosen. */
  const drawInputs = (): void => {
    const slots = SLOTS[operation];
    for (const field of [...inputs.keys()]) if (!slots.some((slot) => slot.field === field)) inputs.delete(field);
    inputPart.replaceChildren(
      ...slots.map((slot) => {
        const list = h('ul', { class: 'thumbs', 'aria-live': 'polite' });
        const drawList = () => {
          list.replaceChildren(
            ...(inputs.get(slot.field) ?? []).map((item) =>
              h(
                'li',
                {},
                h('img', { src: item.preview, alt: item.name }),
                h('span', {
                  class: item.failed ? 'bad' : 'muted',
                  text: item.failed ? item.failed : item.reference ? 'uploaded' : 'uploading…',
                }),
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'secondary',
                    'aria-label': `Remove ${item.name}`,
                    onclick: () => {
                      inputs.set(
                        slot.field,
                        (inputs.get(slot.field) ?? []).filter((other) => other !== item),
                      );
                      drawList();
                      refresh();
                    },
                  },
                  'Remove',
                ),
              ),
            ),
          );
        };
        const zone = dropZone({
          id: `input-${slot.field}`,
          label: slot.label,
          hint: 'Choose or drop JPEG, PNG, WebP or HEIC files; each is sent as a direct upload (POST /uploads, then PUT).',
          multiple: slot.max > 1,
          onFiles: (files) => {
            const kept = slot.max > 1 ? (inputs.get(slot.field) ?? []) : [];
            const added = files.slice(0, Math.max(0, slot.max - kept.length)).map((file) => {
              const item: Picked = {
                name: file.name,
                preview: URL.createObjectURL(file),
                reference: null,
                failed: null,
                aspect: null,
              };
              const probe = new Image();
              probe.onload = () => {
                item.aspect = probe.naturalWidth / probe.naturalHeight;
                refresh();
              };
              probe.src = item.preview;
              uploadFile(file).then(
                (reference) => {
                  item.reference = reference;
                  drawList();
                  refresh();
                },
                (error: unknown) => {
                  item.failed = error instanceof Error ? error.message : String(error);
                  drawList();
                  refresh();
                },
              );
              return item;
            });
            inputs.set(slot.field, [...kept, ...added]);
            drawList();
            refresh();
          },
        });
        drawList();
        return h('div', { class: 'slot' }, zone, list);
      }),
    );
  };

  const drawForOperation = (): void => {
    drawModelFields();
    drawProfiles();
    drawInputs();
    prompt.required = operation === 'generate';
    refresh();
  };

  /** The answer: outputs with faces outlined, the subjects counted, the cost. */
  const showResult = (result: ImageResult, costLine: HTMLElement, heading: string): void => {
    const tags = new Map(profiles.map((profile) => [profile.profile_id, profile.tag]));
    const counts = Object.entries(result.known_subjects.counts);
    const sources = result.images.length > 0 ? result.images.map(dataUri) : result.download_urls;
    const faces = result.recognized_faces;
    results.replaceChildren(
      h('h3', { id: 'result-title', text: heading }),
      costLine,
      h(
        'div',
        { class: 'subjects', 'data-testid': 'known-subjects' },
        h('strong', {}, 'known_subjects: '),
        counts.length === 0
          ? 'no profile recognised.'
          : counts.map(([id, n]) => `${tags.get(id) ? `${tags.get(id)} ` : ''}${id} × ${n}`).join(', '),
      ),
      h(
        'div',
        { class: 'outputs' },
        ...sources.map((src, index) => {
          const mine = faces.filter((face) => face.output_index === index);
          return facesFigure({
            src,
            alt: `Output ${index + 1} of ${sources.length}`,
            boxes: mine.map((face) => ({ box: face.box, label: tags.get(face.profile_id) || face.profile_id })),
            caption: h(
              'span',
              {},
              `Output ${index + 1}: ${mine.length === 0 ? 'no face recognised' : `recognised ${mine.map((face) => face.profile_id).join(', ')}`}. `,
              h('a', { href: src, download: `output-${index + 1}` }, 'Download'),
            ),
          });
        }),
      ),
    );
  };

  const costText = (cost: JobStatus['cost'], jobId: string): string =>
    cost
      ? `Cost: ${cost.reserved} USD reserved, ${cost.final ?? '(not settled yet)'}${cost.final ? ' USD final' : ''} (job ${jobId}).`
      : `Cost: not recorded (job ${jobId}).`;

  /** A synchronous answer names its job in `X-Job-Id`: its cost is the job's. */
  const syncCost = (line: HTMLElement, jobId: string | null): void => {
    if (!jobId) {
      line.textContent = 'Cost: see Jobs (the answer named no job).';
      return;
    }
    service.job(jobId).then(
      (job) => {
        line.textContent = costText(job.cost, job.job_id);
      },
      () => {
        line.textContent = `Cost: see Jobs (job ${jobId}).`;
      },
    );
  };

  const poll = (jobId: string, status: HTMLElement, bar: HTMLProgressElement): void => {
    service.job(jobId).then(
      (job) => {
        bar.value = job.progress;
        const said = `Job ${jobId}: ${job.status}, ${Math.round(job.progress * 100)}%, time left ${eta(job.eta_seconds)}.`;
        if (status.textContent !== said) status.textContent = said;
        if (job.status === 'succeeded' && job.result) {
          showResult(
            job.result,
            h('p', { 'data-testid': 'cost', text: costText(job.cost, jobId) }),
            `Job ${jobId} succeeded`,
          );
          runButton.disabled = false;
          return;
        }
        if (job.status === 'failed') {
          results.replaceChildren(
            h('h3', { id: 'result-title', text: `Job ${jobId} failed` }),
            h(
              'div',
              { class: 'notice error', role: 'alert', 'data-testid': 'refusal' },
              h('strong', { text: job.error?.code ?? 'failed' }),
              h('div', { text: job.error?.message ?? '' }),
            ),
            h('p', { 'data-testid': 'cost', text: costText(job.cost, jobId) }),
          );
          runButton.disabled = false;
          return;
        }
        setTimeout(() => poll(jobId, status, bar), POLL_MS);
      },
      (error: unknown) => {
        results.replaceChildren(h('h3', { id: 'result-title', text: `Job ${jobId}` }), refusal(error));
        runButton.disabled = false;
      },
    );
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (pending().length > 0) return;
    const request = body();
    runButton.disabled = true;
    results.hidden = false;
    const status = h('p', { role: 'status', text: `Running ${operation}…` });
    results.replaceChildren(h('h3', { id: 'result-title', text: 'Running' }), status);
    service.run(operation, request).then(
      ({ answer, jobId }) => {
        if ('job_id' in answer) {
          const bar = h('progress', { max: 1, value: 0, 'aria-label': 'Job progress' });
          results.replaceChildren(h('h3', { id: 'result-title', text: `Job ${answer.job_id}` }), status, bar);
          poll(answer.job_id, status, bar);
          return;
        }
        const line = h('p', { 'data-testid': 'cost', text: 'Cost: reading the job…' });
        showResult(answer, line, `${operation} answered`);
        syncCost(line, jobId);
        runButton.disabled = false;
      },
      (error: unknown) => {
        results.replaceChildren(h('h3', { id: 'result-title', text: `${operation} was refused` }), refusal(error));
        runButton.disabled = false;
      },
    );
  });

  form.addEventListener('input', refresh);
  form.addEventListener('change', refresh);
  operationSelect.addEventListener('change', () => {
    operation = operationSelect.value as Operation;
    drawForOperation();
  });
  mode.addEventListener('change', () => {
    responseMode.disabled = mode.value === 'async';
  });

  form.append(
    h('h3', { id: 'request-title' }, 'Request'),
    h('div', { class: 'grid' }, labelled('operation', 'Operation', operationSelect)),
    modelPart,
    profilePart,
    labelled('prompt', 'Prompt', prompt, 'For edit and generate, [[prf_…]] names a profile where its subject goes.'),
    inputPart,
    h(
      'div',
      { class: 'grid' },
      labelled('count', 'Number of outputs (1 to 4)', count),
      labelled('mode', 'Mode', mode),
      labelled('response-mode', 'Synchronous answer as', responseMode),
    ),
    estimate,
    h('div', { class: 'actions' }, runButton, runNote),
  );

  const workspace = h(
    'div',
    { hidden: true },
    h('div', { class: 'card' }, form),
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'code-title' },
      h('h3', { id: 'code-title' }, 'The same request in code'),
      curl.element,
      typescript.element,
    ),
    results,
  );
  results.setAttribute('tabindex', '-1');
  main.append(
    keyPanel(() => {
      Promise.all([service.models(), api.profiles()]).then(([list, answer]) => {
        models = list;
        profiles = answer.profiles;
        workspace.hidden = false;
        drawForOperation();
      }, fail);
    }),
    workspace,
  );
};
