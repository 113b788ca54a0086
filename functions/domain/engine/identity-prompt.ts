/**
 * How a hosted model is shown who to keep: the candidates' reference face crops (from training) are sent
 * after the caller's own input images, and each `[[id]]` in the prompt becomes words the model can act
 * on ("the person in reference image 3"). When the provider's cap on input images is too small for the
 * crops one by one, each profile's crops become one contact sheet (one image); profiles that still do
 * not fit are left out, those named in the prompt kept first. Pure: the adapters load and tile the crops.
 * Whoever the model draws, recognition of the outputs (recognition.ts) decides `known_subjects`.
 */
import type { CandidateProfile, EngineRequest } from './engine';
import { MAX_REFERENCES_PER_SUBJECT, referencesInOrder } from './reference-choice';

/** The crops of one profile sent one by one, at most this many (in reference-choice.ts's order). */
export const CROPS_PER_PROFILE = 3;

/** One reference image to send: a crop, or a contact sheet of several crops of one profile. */
export interface ReferenceImage {
  profileId: string;
  /** One key: the crop itself; several: tiled into one sheet. */
  keys: string[];
}

export interface IdentityPlan {
  /** The prompt with every `[[id]]` rewritten, and a sentence for profiles referenced only by profile_ids. */
  prompt: string;
  /** In order, after the caller's images. */
  references: ReferenceImage[];
}

const REFERENCE = /\[\[([^\][]+)\]\]/g;

const subjectWord = (candidate: CandidateProfile): string =>
  candidate.face?.kind === 'animal' ? 'the animal' : 'the person';

const imageList = (numbers: number[]): string => {
  if (numbers.length === 1) return `reference image ${numbers[0]}`;
  const last = numbers[numbers.length - 1];
  return `reference images ${numbers.slice(0, -1).join(', ')} and ${last}`;
};

/**
 * @param maxInputImages the provider's cap on input images in one call (caller's images included).
 */
export const planIdentity = (
  request: Pick<EngineRequest, 'prompt' | 'candidates' | 'namedInPrompt' | 'images'>,
  maxInputImages: number,
): IdentityPlan => {
  const withCrops = request.candidates.filter(
    (candidate): candidate is CandidateProfile & { face: NonNullable<CandidateProfile['face']> } =>
      candidate.face !== null && candidate.face.referenceKeys.length > 0,
  );
  // Named in the prompt first: they are what the caller asked to see.
  const ordered = [
    ...withCrops.filter((candidate) => request.namedInPrompt.includes(candidate.profileId)),
    ...withCrops.filter((candidate) => !request.namedInPrompt.includes(candidate.profileId)),
  ];
  const room = Math.max(0, maxInputImages - request.images.length);
  // Which crops, and in which order: closest to the subject's pose in the input first (reference-choice.ts).
  const inOrder = ordered.map((candidate) => referencesInOrder(candidate));
  const oneByOne = inOrder.map((keys) => keys.slice(0, CROPS_PER_PROFILE));
  const total = oneByOne.reduce((sum, keys) => sum + keys.length, 0);

  const references: ReferenceImage[] = [];
  const numbers = new Map<string, number[]>();
  let next = request.images.length + 1;
  ordered.forEach((candidate, index) => {
    const crops = oneByOne[index] ?? [];
    if (total <= room) {
      for (const key of crops) references.push({ profileId: candidate.profileId, keys: [key] });
      numbers.set(
        candidate.profileId,
        crops.map((_, offset) => next + offset),
      );
      next += crops.length;
    } else if (references.length < room) {
      references.push({
        profileId: candidate.profileId,
        keys: (inOrder[index] ?? []).slice(0, MAX_REFERENCES_PER_SUBJECT),
      });
      numbers.set(candidate.profileId, [next]);
      next += 1;
    }
  });

  const byId = new Map(request.candidates.map((candidate) => [candidate.profileId, candidate]));
  const describe = (id: string): string | undefined => {
    const candidate = byId.get(id);
    const shown = numbers.get(id);
    if (!candidate || !shown) return undefined;
    const sheet = shown.length === 1 && (references.find((ref) => ref.profileId === id)?.keys.length ?? 0) > 1;
    return `${subjectWord(candidate)} in ${imageList(shown)}${sheet ? ' (a sheet of several photos of them)' : ''}`;
  };
  // No `[[` reaches a provider: a candidate left without room is named by kind, other bracketed text loses its brackets.
  let prompt = request.prompt.replace(REFERENCE, (_whole, inner: string) => {
    const candidate = byId.get(inner.trim());
    return describe(inner.trim()) ?? (candidate ? subjectWord(candidate) : inner.trim());
  });
  prompt = prompt.replaceAll('[[', '[').replaceAll(']]', ']');
  const unnamed = ordered.filter((candidate) => !request.namedInPrompt.includes(candidate.profileId));
  const keep = unnamed.map((candidate) => describe(candidate.profileId)).filter((text) => text !== undefined);
  if (keep.length > 0) {
    const sentence = `Keep the identity of ${keep.join(' and of ')}.`;
    prompt = prompt.trim() === '' ? sentence : `${prompt.trim()} ${sentence}`;
  }
  return { prompt, references };
};

/**
 * What a general image model is told for the pinned operations, before the caller's words: enhance and
 * remix have no model choice and a prompt that only guides, so the model must be told the task.
 */
export const OPERATION_INSTRUCTIONS: Partial<Record<EngineRequest['operation'], string>> = {
  enhance: 'Enhance this photo: sharpen, denoise, correct exposure; keep composition and identity.',
  remix: 'Render image 1 in the style of image 2.',
};

/** The operation's instruction (if it has one), then the caller's prompt. */
export const instructedPrompt = (operation: EngineRequest['operation'], prompt: string): string =>
  [OPERATION_INSTRUCTIONS[operation] ?? '', prompt.trim()].filter((part) => part !== '').join(' ');
