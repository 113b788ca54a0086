/**
 * How a hosted model is shown who to keep: the candidates' reference face crops (from training) are sent
 * after the caller's own input images, and each `[[id]]` in the prompt becomes words the model can act
 * on ("the person in reference image 3"). When the provider's cap on input images is too small for the
 * crops one by one, each profile's crops become one contact sheet (one image); profiles that still do
 * not fit are left out, those named in the prompt kept first. Pure: the adapters load and tile the crops.
 * Whoever the model draws, recognition of the outputs (recognition.ts) decides `known_subjects`.
 *
 * A model that takes a LoRA (FLUX.2 [dev] on fal: `base-a-2`) carries at most one subject by its LoRA
 * (`loraCarried`, the rule in docs/identity.md "Which subject a LoRA carries"): that subject is sent no crop,
 * and `[[id]]` becomes the words its LoRA was trained on (`<token> person`); every other subject keeps its
 * references. Several LoRAs in one call bleed into each other (issue 42), so one is the most ever sent.
 */
import type { FaceKind } from '../faces';
import type { CandidateLora, CandidateProfile, EngineRequest } from './engine';
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
  /** The subject carried by its LoRA (only when the model takes one): sent as a LoRA, not as crops. */
  lora?: CandidateLora & { profileId: string };
}

/**
 * The scale a subject's LoRA is applied at (fal's LoRAInput.scale, 0-4, default 1): 1, as it was trained.
 * Lower scales weaken the likeness; higher ones overfit (issue 42: users report bleeding at high strength).
 */
export const LORA_SCALE = 1;

/** The class word a LoRA's captions and prompts use for its subject (profiles/lora-training.ts captions). */
const loraClassWord = (kind: FaceKind | undefined): string => (kind === 'animal' ? 'animal' : 'person');

/** What a prompt says for a subject carried by its LoRA: the token it was trained on and its class. */
export const loraSubjectWords = (token: string, kind: FaceKind | undefined): string =>
  `${token} ${loraClassWord(kind)}`;

/**
 * Which subject a model that takes a LoRA carries by it: the first candidate with a LoRA among those named
 * as `[[id]]` in the prompt, in the prompt's order; without one, the first with a LoRA listed in profile_ids
 * (present in the input). At most one: the others keep their references.
 */
export const loraCarried = (
  request: Pick<EngineRequest, 'candidates' | 'namedInPrompt'>,
): (CandidateProfile & { lora: CandidateLora }) | undefined => {
  const withLora = request.candidates.filter(
    (candidate): candidate is CandidateProfile & { lora: CandidateLora } => candidate.lora !== undefined,
  );
  for (const id of request.namedInPrompt) {
    const named = withLora.find((candidate) => candidate.profileId === id);
    if (named) return named;
  }
  return withLora[0];
};

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
 * @param takesLora whether the model takes a LoRA (one subject is then carried by it: `loraCarried`).
 */
export const planIdentity = (
  request: Pick<EngineRequest, 'prompt' | 'candidates' | 'namedInPrompt' | 'images'>,
  maxInputImages: number,
  takesLora = false,
): IdentityPlan => {
  const carried = takesLora ? loraCarried(request) : undefined;
  const withCrops = request.candidates.filter(
    (candidate): candidate is CandidateProfile & { face: NonNullable<CandidateProfile['face']> } =>
      candidate.profileId !== carried?.profileId && candidate.face !== null && candidate.face.referenceKeys.length > 0,
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
  const carriedWords = carried && loraSubjectWords(carried.lora.token, carried.face?.kind);
  // No `[[` reaches a provider: a candidate left without room is named by kind, other bracketed text loses its brackets.
  let prompt = request.prompt.replace(REFERENCE, (_whole, inner: string) => {
    const candidate = byId.get(inner.trim());
    if (carriedWords && candidate?.profileId === carried?.profileId) return carriedWords;
    return describe(inner.trim()) ?? (candidate ? subjectWord(candidate) : inner.trim());
  });
  prompt = prompt.replaceAll('[[', '[').replaceAll(']]', ']');
  const unnamed = ordered.filter((candidate) => !request.namedInPrompt.includes(candidate.profileId));
  const keep = [
    ...(carriedWords && carried && !request.namedInPrompt.includes(carried.profileId) ? [carriedWords] : []),
    ...unnamed.map((candidate) => describe(candidate.profileId)).filter((text) => text !== undefined),
  ];
  if (keep.length > 0) {
    const sentence = `Keep the identity of ${keep.join(' and of ')}.`;
    prompt = prompt.trim() === '' ? sentence : `${prompt.trim()} ${sentence}`;
  }
  return {
    prompt,
    references,
    ...(carried && { lora: { profileId: carried.profileId, key: carried.lora.key, token: carried.lora.token } }),
  };
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
