/**
 * The playground's answer: the outputs with the recognised faces outlined, `known_subjects`, and the cost
 * reserved and final; an asynchronous job is polled until it ends.
 */
import { h } from '../../dom';
import { type ImageResult, type JobStatus, service } from '../../service';
import { eta, facesFigure, refusal } from '../../widgets';
import type { PlaygroundState } from './form';

const POLL_MS = 1000;

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

const costText = (cost: JobStatus['cost'], jobId: string): string =>
  cost
    ? `Cost: ${cost.reserved} USD reserved, ${cost.final ?? '(not settled yet)'}${cost.final ? ' USD final' : ''} (job ${jobId}).`
    : `Cost: not recorded (job ${jobId}).`;

/** Where the answers are shown (`results`), and the run button they enable again once the run is over. */
export const answerPanel = (state: PlaygroundState, results: HTMLElement, runButton: HTMLButtonElement) => {
  /** The answer: outputs with faces outlined, the subjects counted, the cost. */
  const showResult = (result: ImageResult, costLine: HTMLElement, heading: string): void => {
    const tags = new Map(state.profiles.map((profile) => [profile.profile_id, profile.tag]));
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

  return { showResult, syncCost, poll };
};
