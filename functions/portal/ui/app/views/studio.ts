/**
 * The profile studio: 5 to 50 photos chosen or dropped, each sent as a direct upload and checked by the
 * preflight as it arrives (every photo uploaded so far, with the chosen tier: the face boxes outlined, the
 * warnings in words), the tier with its price, an optional tag; then POST /profiles/add with the upload
 * references, and the status, progress and ETA until READY, with the picture and the reference crops.
 *
 * The preflight judges the set together, so each run names every photo; the service remembers what each
 * upload turned out to be and reads only the new ones. A photo keeps its last check while the set is
 * checked again. A run answers within 25 s: photos it did not reach are `not_checked`, and the studio asks
 * again at once while each run gets further, then offers "Check again".
 */
import { api } from '../api';
import { badge, fail, h, say } from '../dom';
import { page } from '../layout';
import { type PreflightPhoto, type PreflightReport, type ProfileStatus, service, uploadFile } from '../service';
import type { Money } from '../types';
import { dropZone, eta, facesFigure, keyPanel, refusal } from '../widgets';

type Tier = 'standard' | 'fast';
const TIERS: Readonly<Record<Tier, { min: number; max: number; title: string }>> = {
  standard: { min: 10, max: 50, title: 'Standard: 10 to 50 photos' },
  fast: { min: 5, max: 10, title: 'Fast: 5 to 10 photos' },
};
const MAX_PHOTOS = 50;
const POLL_MS = 1000;

/** What each preflight warning means, in words; the API's own sentence follows it. */
const WARNINGS: Readonly<Record<string, string>> = {
  no_face: 'No face found',
  several_faces: 'Several faces',
  face_too_small: 'Face too small',
  face_blurry: 'Face blurry',
  face_turned_away: 'Face turned away',
  other_person: 'Another person',
  duplicate: 'Duplicate',
  near_duplicate: 'Nearly a duplicate',
  too_small: 'Photo too small',
  blurry: 'Photo blurry',
  greyscale: 'Greyscale',
  extreme_aspect: 'Extreme crop',
};

interface Photo {
  id: number;
  name: string;
  preview: string;
  reference: string | null;
  failed: string | null;
  check: PreflightPhoto | null;
}

export const studioView = (): void => {
  const main = page('Profile studio', '#/studio');
  const photos: Photo[] = [];
  let nextId = 0;
  let tier: Tier = 'fast';
  let prices: { standard: Money; fast: Money } | null = null;
  let report: PreflightReport | null = null;
  let checking = false;
  let checkAgain = false;
  let checkFailed = false;
  /** The last run reached no photo it had not reached before: asking again at once would not help. */
  let stalled = false;
  let training = false;

  const grid = h('ul', { class: 'photo-grid', 'aria-label': 'Photos' });
  const summary = h('div', { class: 'summary', role: 'status', 'data-testid': 'preflight-summary' });
  const tierPart = h('fieldset', { class: 'tiers' });
  const tag = h('input', { id: 'tag', type: 'text', maxlength: 128, placeholder: 'e.g. alice' });
  const train = h('button', { type: 'submit' }, 'Train');
  const trainNote = h('span', { class: 'muted' });
  const progressPart = h('section', {
    class: 'card',
    'aria-labelledby': 'training-title',
    hidden: true,
    tabindex: '-1',
  });

  const uploaded = (): Photo[] => photos.filter((photo) => photo.reference !== null);

  const drawTiers = (): void => {
    tierPart.replaceChildren(
      h('legend', {}, 'Training tier'),
      ...(['fast', 'standard'] as const).map((value) =>
        h(
          'label',
          { class: 'check' },
          h('input', {
            type: 'radio',
            name: 'tier',
            value,
            checked: value === tier,
            onchange: () => {
              tier = value;
              schedulePreflight();
              refresh();
            },
          }),
          `${TIERS[value].title}${prices ? `, ${prices[value].usd} USD` : ''}`,
        ),
      ),
    );
  };

  const photoCard = (photo: Photo): HTMLLIElement => {
    const check = photo.check;
    const face = check?.face ?? null;
    const boxes = (face?.boxes ?? []).map((box, index) => ({
      box,
      label: face && face.count > 1 ? `face ${index + 1}` : '',
    }));
    const state = photo.failed
      ? h('p', { class: 'bad', text: photo.failed })
      : !photo.reference
        ? h('p', { class: 'muted', text: 'Uploading…' })
        : !check
          ? h('p', { class: 'muted', text: checkFailed ? 'Not checked: the preflight failed.' : 'Checking…' })
          : check.status === 'not_checked'
            ? h('p', {
                class: 'muted',
                text: stalled && !checking ? 'Not checked in time.' : 'Not checked yet: checking…',
              })
            : null;
    const verdict =
      check && check.status === 'checked'
        ? face?.usable
          ? h('p', { class: 'good', text: 'Usable' })
          : h('p', { class: 'bad', text: check.fetched ? 'Not used for training' : `Not read: ${check.error ?? ''}` })
        : null;
    const warnings = check?.warnings.length
      ? h(
          'ul',
          { class: 'warnings' },
          ...check.warnings.map((warning) =>
            h(
              'li',
              { 'data-code': warning.code },
              h('strong', { text: `${WARNINGS[warning.code] ?? warning.code}: ` }),
              warning.message,
            ),
          ),
        )
      : null;
    return h(
      'li',
      { class: 'photo', 'data-testid': 'photo', 'aria-label': photo.name },
      facesFigure({
        src: photo.preview,
        alt: `${photo.name}${face ? `: ${face.count} face${face.count === 1 ? '' : 's'} found` : ''}`,
        boxes,
        size: check?.width && check.height ? { width: check.width, height: check.height } : undefined,
      }),
      h('p', { class: 'name', text: photo.name }),
      state,
      verdict,
      warnings,
      h(
        'button',
        {
          type: 'button',
          class: 'secondary',
          'aria-label': `Remove ${photo.name}`,
          disabled: training,
          onclick: () => {
            photos.splice(photos.indexOf(photo), 1);
            schedulePreflight();
            refresh();
          },
        },
        'Remove',
      ),
    );
  };

  const refresh = (): void => {
    grid.replaceChildren(...photos.map(photoCard));
    const range = TIERS[tier];
    const ready = uploaded();
    const waiting = photos.length - ready.length - photos.filter((photo) => photo.failed).length;
    const lines: string[] = [`${ready.length} of ${photos.length} photo(s) uploaded.`];
    const unchecked = report?.photos.filter((check) => check.status === 'not_checked').length ?? 0;
    if (report && unchecked > 0 && (checking || !stalled))
      lines.push(`${report.photos.length - unchecked} of ${report.photos.length} photo(s) checked; checking the rest…`);
    else if (report && !checking)
      lines.push(
        `Preflight (${report.training_tier}): ${report.usable_photos} usable of the ${report.needed_photos} needed; ${report.accepted ? 'profiles/add would train this set.' : `not accepted: ${report.problems.join(' ')}`}`,
      );
    else if (checking) lines.push('Checking the photos…');
    summary.replaceChildren(...lines.map((line) => h('p', { text: line })));
    if (report && unchecked > 0 && stalled && !checking)
      summary.append(
        h('button', { type: 'button', class: 'secondary', onclick: () => schedulePreflight() }, 'Check again'),
      );
    const countOk = ready.length >= range.min && ready.length <= range.max;
    train.disabled = training || waiting > 0 || checking || !countOk;
    trainNote.textContent = training
      ? ''
      : !countOk
        ? `The ${tier} tier takes ${range.min} to ${range.max} photos.`
        : report && !report.accepted
          ? 'The preflight expects this set to fail; the training would end in ERROR and release the reservation.'
          : prices
            ? `Training reserves ${prices[tier].usd} USD.`
            : '';
  };

  /**
   * Runs the preflight over every photo uploaded so far; again once it ends when more arrived meanwhile, or
   * when it left photos not checked but reached more than the run before.
   */
  const runPreflight = (): void => {
    const ready = uploaded();
    if (ready.length === 0) {
      report = null;
      refresh();
      return;
    }
    checking = true;
    checkAgain = false;
    checkFailed = false;
    stalled = false;
    const checkedBefore = ready.filter((photo) => photo.check?.status === 'checked').length;
    refresh();
    service
      .preflight(
        ready.map((photo) => photo.reference ?? ''),
        tier,
      )
      .then(
        (answer) => {
          checking = false;
          report = answer;
          // Every photo's check is the set's latest (duplicates and the odd one out depend on the rest).
          answer.photos.forEach((check, index) => {
            const photo = ready[index];
            if (photo && photos.includes(photo)) photo.check = check;
          });
          const checked = answer.photos.filter((check) => check.status === 'checked').length;
          const unchecked = answer.photos.length - checked;
          stalled = unchecked > 0 && checked <= checkedBefore;
          if (checkAgain || (unchecked > 0 && !stalled)) runPreflight();
          else refresh();
        },
        (error: unknown) => {
          checking = false;
          summary.replaceChildren(refusal(error));
          if (checkAgain) runPreflight();
        },
      );
  };

  const schedulePreflight = (): void => {
    if (checking) checkAgain = true;
    else runPreflight();
  };

  const addFiles = (files: File[]): void => {
    const room = MAX_PHOTOS - photos.length;
    if (files.length > room) say(`At most ${MAX_PHOTOS} photos: ${files.length - room} left out.`, 'error');
    for (const file of files.slice(0, Math.max(0, room))) {
      const photo: Photo = {
        id: nextId++,
        name: file.name,
        preview: URL.createObjectURL(file),
        reference: null,
        failed: null,
        check: null,
      };
      photos.push(photo);
      uploadFile(file).then(
        (reference) => {
          photo.reference = reference;
          schedulePreflight();
          refresh();
        },
        (error: unknown) => {
          photo.failed = error instanceof Error ? error.message : String(error);
          refresh();
        },
      );
    }
    refresh();
  };

  const showReady = (profileId: string, title: HTMLElement): void => {
    const picture = h('img', {
      class: 'picture large',
      src: api.profilePictureUrl(profileId),
      alt: `Picture of ${profileId}`,
    });
    const crops = h('div', { class: 'crops' });
    progressPart.append(
      h(
        'div',
        { class: 'ready' },
        h('figure', {}, picture, h('figcaption', {}, 'The profile picture training chose.')),
        h('div', {}, h('h4', {}, 'Reference crops'), crops),
      ),
      h(
        'p',
        {},
        'Use it in the ',
        h('a', { href: '#/playground' }, 'playground'),
        ` as [[${profileId}]] or in profile_ids.`,
      ),
    );
    api.referenceCount(profileId).then((count) => {
      crops.replaceChildren(
        count === 0
          ? h('p', {
              class: 'muted',
              text: 'This profile keeps no reference crops (trained before faces, or by a remote trainer).',
            })
          : h('p', {
              class: 'muted',
              text: `The ${count} aligned face crops training kept, best first: what the engine receives as this subject's face (from a Full Train bank, those closest to the subject's pose in each request).`,
            }),
        ...Array.from({ length: count }, (_, rank) =>
          h('img', {
            class: 'crop',
            src: api.referenceUrl(profileId, rank),
            alt: `Reference crop ${rank + 1} of ${profileId}`,
          }),
        ),
      );
    }, fail);
    title.focus();
  };

  const watch = (profileId: string): void => {
    const title = h('h3', { id: 'training-title', tabindex: '-1', text: `Training ${profileId}` });
    const state = h('p', { role: 'status', 'data-testid': 'training-status' });
    const bar = h('progress', { max: 1, value: 0, 'aria-label': 'Training progress' });
    const message = h('p', { class: 'muted' });
    progressPart.hidden = false;
    progressPart.replaceChildren(title, state, bar, message);
    progressPart.focus();
    const poll = (): void => {
      service.profileStatus(profileId).then(
        (status: ProfileStatus) => {
          bar.value = status.progress;
          const said = `${status.status}: ${Math.round(status.progress * 100)}%, time left ${eta(status.eta_seconds)}.`;
          if (state.firstChild?.textContent !== said) state.replaceChildren(badge(status.status), ` ${said}`);
          message.textContent = status.message;
          if (status.status === 'READY') {
            title.textContent = `${profileId} is READY`;
            showReady(profileId, title);
            return;
          }
          if (status.status === 'ERROR') {
            title.textContent = `${profileId} ended in ERROR`;
            training = false;
            refresh();
            return;
          }
          setTimeout(poll, POLL_MS);
        },
        (error: unknown) => progressPart.append(refusal(error)),
      );
    };
    poll();
  };

  const form = h(
    'form',
    {
      class: 'studio',
      onsubmit: (event) => {
        event.preventDefault();
        const references = uploaded().map((photo) => photo.reference ?? '');
        const chosenTag = tag.value.trim();
        training = true;
        refresh();
        service
          .addProfile({ image_urls: references, training_tier: tier, ...(chosenTag ? { tag: chosenTag } : {}) })
          .then(
            (created) => watch(created.profile_id),
            (error: unknown) => {
              training = false;
              refresh();
              summary.append(refusal(error));
            },
          );
      },
    },
    tierPart,
    h('label', { for: 'tag' }, 'Tag (optional)', tag),
    h('div', { class: 'actions' }, train, trainNote),
  );

  const workspace = h(
    'div',
    { hidden: true },
    h(
      'section',
      { class: 'card', 'aria-labelledby': 'photos-title' },
      h('h3', { id: 'photos-title' }, 'Photos'),
      dropZone({
        id: 'training-photos',
        label: 'Training photos (5 to 50)',
        hint: 'Photos of one person or pet, one face each, sharp and from different days. Each is uploaded directly and checked as it arrives; nothing is charged until you train.',
        multiple: true,
        onFiles: addFiles,
      }),
      summary,
      grid,
    ),
    h('section', { class: 'card', 'aria-labelledby': 'train-title' }, h('h3', { id: 'train-title' }, 'Train'), form),
    progressPart,
  );
  main.append(
    keyPanel(() => {
      workspace.hidden = false;
      api.trainingPrices().then((answer) => {
        prices = answer;
        drawTiers();
        refresh();
      }, fail);
    }),
    workspace,
  );
  drawTiers();
  refresh();
};
