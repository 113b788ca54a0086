/**
 * The identity plan (domain/engine/identity-prompt.ts) made real: the reference crops loaded, and a
 * profile's crops tiled into one contact sheet where the plan asks for one. JPEG, small: a crop is a
 * face of a few hundred pixels, and a sheet is at most three across.
 */
import type { EngineRequest } from '../../../domain/engine/engine';
import { type IdentityPlan, instructedPrompt, planIdentity } from '../../../domain/engine/identity-prompt';
import { loadSharp } from '../../images/sharp';

export interface IdentityInputs {
  /** The prompt to send: the operation's instruction (enhance, remix), then the caller's words with `[[id]]` rewritten. */
  prompt: string;
  /** JPEG bytes, in the plan's order: send them after the caller's images. */
  references: Buffer[];
  plan: IdentityPlan;
}

const TILE = 512;
const SHEET_COLUMNS = 3;

const contactSheet = async (crops: Buffer[]): Promise<Buffer> => {
  const columns = Math.min(SHEET_COLUMNS, crops.length);
  const rows = Math.ceil(crops.length / columns);
  const sharp = await loadSharp();
  const tiles = await Promise.all(
    crops.map((crop) => sharp(crop).rotate().resize(TILE, TILE, { fit: 'cover' }).jpeg().toBuffer()),
  );
  return sharp({
    create: { width: columns * TILE, height: rows * TILE, channels: 3, background: '#ffffff' },
  })
    .composite(
      tiles.map((input, index) => ({ input, left: (index % columns) * TILE, top: Math.floor(index / columns) * TILE })),
    )
    .jpeg({ quality: 90 })
    .toBuffer();
};

export const identityInputs = async (
  request: Pick<EngineRequest, 'operation' | 'prompt' | 'candidates' | 'namedInPrompt' | 'images'>,
  maxInputImages: number,
  load: (key: string) => Promise<Buffer>,
  takesLora = false,
): Promise<IdentityInputs> => {
  const plan = planIdentity(request, maxInputImages, takesLora);
  const references = await Promise.all(
    plan.references.map(async ({ keys }) => {
      const crops = await Promise.all(keys.map(load));
      const [first] = crops;
      return crops.length === 1 && first ? first : contactSheet(crops);
    }),
  );
  return { prompt: instructedPrompt(request.operation, plan.prompt), references, plan };
};
