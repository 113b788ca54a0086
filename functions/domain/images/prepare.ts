/**
 * Steps 1-3 of an image operation, before anything is created or charged:
 * 1. rules that need no I/O (base model, resolution, quality, aspect ratio, size) → 400;
 * 2. profile references: unknown → 404, not READY → 400, mixed versions → 400; a READY profile without a
 *    template of the current face model gets one from its stored photos within the template budget
 *    (profiles/templates.ts), or is served unchecked (sent, not recognised, not billed), never refused;
 * 3. inputs decoded (fetched through the SSRF guard) → 400 naming the input;
 * 4. who is there: the candidates the engine gets are those named in the prompt or present in the inputs
 *    (engine/identity.ts), each input analysed once.
 * The outcome is the engine request and the price.
 */
import type { Caller } from '../accounts/accounts';
import { pinnedTwoK, resolveOutputSpec } from '../catalog/output-spec';
import { type CeilingInputs, ceilingPrice, type PricedRequest } from '../catalog/pricing';
import type { CandidateProfile, Operation, OutputFormat, PreparedEngineRequest } from '../engine/engine';
import { expectedCandidates, type IdentityCheck, MAX_IDENTITY_RETRIES } from '../engine/identity';
import { CROPS_PER_PROFILE, instructedPrompt, planIdentity } from '../engine/identity-prompt';
import { faceOfModel, type Profile, posesOf, referenceKeysOf, referencePosesOf } from '../profiles/profile';
import { templatesForRequest } from '../profiles/templates';
import type { ImageCommand } from './command';
import type { ImageDeps } from './deps';
import { checkReferencedProfiles, mergeReferences } from './profile-references';

/** What is known once a request has passed every check and its inputs are decoded. */
export interface PreparedOperation {
  engineRequest: PreparedEngineRequest;
  priced: PricedRequest;
  /** The reservation: the most the request can cost (pricing.ts, ceilingPrice). */
  reservedMicros: number;
  identityCheck: IdentityCheck;
}

export const defaultOutputFormat = (now: number, switchAt: number): OutputFormat => (now < switchAt ? 'png' : 'jpg');

/** Steps 1-3: checks and decoding, nothing created, nothing charged. */
export const prepare = async (
  deps: Pick<
    ImageDeps,
    'profiles' | 'decodeInput' | 'clock' | 'settings' | 'faces' | 'profileTemplates' | 'meter' | 'warn'
  >,
  caller: Caller,
  command: ImageCommand,
  signal: AbortSignal,
): Promise<PreparedOperation> => {
  // A deployment's alias (MODEL_ALIASES) names a catalog model; any other unknown name stays a 400 below.
  const alias = (id: string | undefined) => (id === undefined ? id : (deps.settings.modelAliases?.[id] ?? id));
  const choice =
    command.output === 'pinned' ? command.output : { ...command.output, baseModel: alias(command.output.baseModel) };
  if (choice !== 'pinned') resolveOutputSpec(editOrGenerate(command.operation), choice);

  // Edit and generate name subjects in the prompt; for enhance and remix the prompt only guides (spec).
  const { referenced, namedInPrompt } =
    command.operation === 'edit' || command.operation === 'generate'
      ? mergeReferences(command.profileIds, command.prompt)
      : { referenced: [...new Set(command.profileIds)], namedInPrompt: [] };
  const found = referenced.length > 0 ? await deps.profiles.findMany(caller.accountId, referenced) : [];
  checkReferencedProfiles(referenced, found);
  const { profiles } = await templatesForRequest(
    {
      ...deps.profileTemplates,
      faces: deps.faces,
      clock: deps.clock,
      meter: deps.meter,
      warn: deps.warn,
      settings: { photoConcurrency: 1 },
    },
    found,
    deps.settings.templateBudgetMs,
    signal,
  );

  const images = await Promise.all(
    command.inputs.map((input) => deps.decodeInput(input.value, input.label, signal, caller.accountId)),
  );
  const first = images[0];
  const outputFormat = command.outputFormat ?? defaultOutputFormat(deps.clock(), deps.settings.outputFormatSwitchAt);

  let size: { width: number; height: number };
  let priced: PricedRequest;
  let baseModel: string;
  let quality: string | undefined;
  if (choice === 'pinned') {
    if (!first) throw new Error(`${command.operation} needs an input image`);
    size = pinnedTwoK(first.width, first.height);
    priced = { operation: pinnedOperation(command.operation), numOutputImages: command.numOutputImages };
    baseModel = 'base-c-2';
  } else {
    const spec = resolveOutputSpec(editOrGenerate(command.operation), {
      ...choice,
      inputAspect: first ? first.width / first.height : undefined,
    });
    size = { width: spec.width, height: spec.height };
    priced = { operation: editOrGenerate(command.operation), output: spec, numOutputImages: command.numOutputImages };
    baseModel = spec.baseModel;
    quality = spec.quality;
  }
  // The candidates the engine sees and recognition may bill: named, or present in the inputs.
  const byId = new Map(profiles.map((profile) => [profile.profileId, profile]));
  const referencedCandidates = referenced.flatMap((id) => {
    const profile = byId.get(id);
    return profile ? [candidateOf(profile, deps.faces.modelId)] : [];
  });
  const identityCheck = command.identityCheck ?? 'report';
  const candidates = await expectedCandidates(
    deps.faces,
    { operation: command.operation, images, candidates: referencedCandidates, namedInPrompt },
    signal,
  );
  return {
    engineRequest: {
      operation: command.operation,
      prompt: command.prompt,
      images,
      width: size.width,
      height: size.height,
      outputFormat,
      numOutputImages: command.numOutputImages,
      baseModel,
      quality,
      candidates,
      namedInPrompt,
    },
    priced,
    reservedMicros: ceilingPrice(priced, {
      ...ceilingInputs(command.operation, command.prompt, images.length, candidates, namedInPrompt),
      maxRetriedOutputs: maxRetriedOutputs(identityCheck, candidates, command.numOutputImages),
    }),
    identityCheck,
  };
};

/**
 * What may be recognised and what a provider is sent, at most: every candidate with a face template may
 * be recognised in every output; the prompt as an adapter sends it (the operation's instruction, `[[id]]`
 * rewritten and the identity sentence: engine/identity-prompt.ts), with room for the longer wording of a
 * contact sheet; the caller's images and up to CROPS_PER_PROFILE reference crops per candidate.
 */
const SHEET_WORDING_BYTES = 48;
const ceilingInputs = (
  operation: Operation,
  prompt: string,
  inputImages: number,
  candidates: CandidateProfile[],
  namedInPrompt: string[],
): CeilingInputs => {
  const plan = planIdentity({ prompt, candidates, namedInPrompt, images: new Array(inputImages) }, Infinity);
  const sent = instructedPrompt(operation, plan.prompt);
  return {
    recognisable: candidates.filter((candidate) => candidate.face !== null).length,
    sent: {
      promptBytes: Buffer.byteLength(sent, 'utf8') + SHEET_WORDING_BYTES * candidates.length,
      images:
        inputImages +
        candidates.reduce(
          (sum, candidate) => sum + Math.min(CROPS_PER_PROFILE, candidate.face?.referenceKeys.length ?? 0),
          0,
        ),
    },
  };
};

/**
 * The most outputs identity retries may make again, reserved with the request: each output
 * MAX_IDENTITY_RETRIES more times with `identity_check: "retry"` and an expected subject recognition can find.
 */
const maxRetriedOutputs = (mode: IdentityCheck, candidates: CandidateProfile[], numOutputImages: number): number =>
  mode === 'retry' && candidates.some((candidate) => candidate.face !== null)
    ? numOutputImages * MAX_IDENTITY_RETRIES
    : 0;

/**
 * A profile as recognition and the engine see it: its template of face model `modelId` and its reference
 * crops (with their poses, when training recorded them). Without a template of that model, another model's
 * (its crops are sent; recognition, which compares only faces of one model, cannot match it: the subject is
 * not checked), or none. A Full Train profile whose LoRA training ended READY also carries its LoRA (a model
 * that takes one may use it instead of its crops: engine/identity-prompt.ts `loraCarried`); Quick Train
 * profiles never have one.
 */
export const candidateOf = (
  profile: Pick<Profile, 'profileId' | 'face' | 'moreFaces'> &
    Partial<Pick<Profile, 'trainingTier' | 'lora' | 'loraToken'>>,
  modelId: string,
): CandidateProfile => {
  const face = faceOfModel(profile, modelId) ?? profile.face ?? profile.moreFaces[0] ?? null;
  const lora =
    profile.trainingTier === 'standard' && profile.lora && profile.loraToken
      ? { key: profile.lora.key, token: profile.loraToken }
      : undefined;
  const own = face !== null && face.referenceKeys.length > 0;
  const referencePoses = own ? posesOf(face) : referencePosesOf(profile);
  return {
    profileId: profile.profileId,
    ...(lora && { lora }),
    face: face
      ? {
          modelId: face.modelId,
          kind: face.kind,
          mean: face.mean,
          referenceKeys: own ? face.referenceKeys : referenceKeysOf(profile),
          ...(referencePoses && { referencePoses }),
        }
      : null,
  };
};

const editOrGenerate = (operation: Operation): 'edit' | 'generate' => {
  if (operation !== 'edit' && operation !== 'generate') throw new Error(`${operation} takes no output choice`);
  return operation;
};
const pinnedOperation = (operation: Operation): 'enhance' | 'remix' => {
  if (operation !== 'enhance' && operation !== 'remix') throw new Error(`${operation} is not pinned`);
  return operation;
};
