/**
 * The playground: one image request built from a form (operation, the base model's own fields from
 * GET /models, READY profiles as `profile_ids` or `[[id]]`, a prompt, inputs sent as direct uploads, the
 * number of outputs, sync or async), its least cost before it runs, the same request as curl and as a
 * TypeScript client call, and its answer: outputs with the recognised faces outlined, `known_subjects`,
 * the cost reserved and final, or the API's refusal as it was given. It is an ordinary API call of the
 * account, made with the tab's key (service.ts).
 *
 * This file lays the page out, builds the request body and runs it; the parts are in playground/: the
 * model fields, the profiles, the image inputs, the cost estimate, the code snippets and the answer, with
 * the state they share in form.ts.
 */
import { api } from '../api';
import { fail, h } from '../dom';
import { page } from '../layout';
import { type Operation, service } from '../service';
import { codeBlock, keyPanel, refusal } from '../widgets';
import { answerPanel } from './playground/answer';
import { leastCost } from './playground/cost';
import { isPinned, labelled, option, type PlaygroundState } from './playground/form';
import { drawInputs, pendingInputs, SLOTS } from './playground/image-inputs';
import { modelFields } from './playground/model-fields';
import { checkedProfiles, drawProfiles } from './playground/profile-picker';
import { clientCall, curlCommand } from './playground/snippets';

const OPERATIONS: readonly Operation[] = ['generate', 'edit', 'enhance', 'remix'];

export const playgroundView = (): void => {
  const main = page('Playground', '#/playground');
  const state: PlaygroundState = { models: null, profiles: [], operation: 'generate', inputs: new Map() };

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
  const operationSelect = h(
    'select',
    { id: 'operation' },
    ...OPERATIONS.map((op) => option(op, op, op === state.operation)),
  );
  // What depends on the operation and the model, drawn again when they change.
  const modelPart = h('div', { class: 'grid' });
  const profilePart = h('fieldset', { class: 'profiles' });
  const inputPart = h('div');

  /** The request body exactly as it will be sent (and as curl and the client call show it). */
  const body = (): Record<string, unknown> => {
    const { operation } = state;
    const request: Record<string, unknown> = {};
    const model = fields.chosen();
    if (!isPinned(operation) && model) {
      const { resolutionSelect, aspectSelect, qualitySelect, sizeInput } = fields.controls();
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
      const refs = (state.inputs.get(slot.field) ?? []).map((item) => item.reference ?? `(uploading ${item.name})`);
      if (slot.max > 1) request[slot.field] = refs;
      else if (refs[0]) request[slot.field] = refs[0];
    }
    const ids = operation === 'generate' ? [] : checkedProfiles(profilePart);
    if (ids.length > 0) request.profile_ids = ids;
    const n = Number(count.value);
    if (Number.isInteger(n) && n !== 1) request.num_output_images = n;
    if (mode.value === 'async') request.async = true;
    else if (responseMode.value === 'urls') request.response_mode = 'urls';
    return request;
  };

  /** curl and the TypeScript client, both with the key as a placeholder and the real body. */
  const showCode = (): void => {
    const request = body();
    curl.set(curlCommand(state.operation, request));
    typescript.set(clientCall(state.operation, request));
  };

  const refresh = (): void => {
    estimate.textContent = leastCost(state, fields, count.value);
    showCode();
    const waiting = pendingInputs(state);
    const failed = waiting.filter((item) => item.failed !== null);
    runButton.disabled = waiting.length > 0;
    runNote.textContent =
      failed.length > 0
        ? `Remove the inputs that did not upload (${failed.map((item) => item.name).join(', ')}).`
        : waiting.length > 0
          ? `Uploading ${waiting.length} input(s)…`
          : '';
  };

  const fields = modelFields(state, modelPart, refresh);

  const drawForOperation = (): void => {
    fields.draw();
    drawProfiles(state, profilePart, prompt, refresh);
    drawInputs(state, inputPart, refresh);
    prompt.required = state.operation === 'generate';
    refresh();
  };

  const { showResult, syncCost, poll } = answerPanel(state, results, runButton);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (pendingInputs(state).length > 0) return;
    const request = body();
    runButton.disabled = true;
    results.hidden = false;
    const status = h('p', { role: 'status', text: `Running ${state.operation}…` });
    results.replaceChildren(h('h3', { id: 'result-title', text: 'Running' }), status);
    service.run(state.operation, request).then(
      ({ answer, jobId }) => {
        if ('job_id' in answer) {
          const bar = h('progress', { max: 1, value: 0, 'aria-label': 'Job progress' });
          results.replaceChildren(h('h3', { id: 'result-title', text: `Job ${answer.job_id}` }), status, bar);
          poll(answer.job_id, status, bar);
          return;
        }
        const line = h('p', { 'data-testid': 'cost', text: 'Cost: reading the job…' });
        showResult(answer, line, `${state.operation} answered`);
        syncCost(line, jobId);
        runButton.disabled = false;
      },
      (error: unknown) => {
        results.replaceChildren(
          h('h3', { id: 'result-title', text: `${state.operation} was refused` }),
          refusal(error),
        );
        runButton.disabled = false;
      },
    );
  });

  form.addEventListener('input', refresh);
  form.addEventListener('change', refresh);
  operationSelect.addEventListener('change', () => {
    state.operation = operationSelect.value as Operation;
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
        state.models = list;
        state.profiles = answer.profiles;
        workspace.hidden = false;
        drawForOperation();
      }, fail);
    }),
    workspace,
  );
};
