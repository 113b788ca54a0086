import type { FacePose } from '../../../../functions/domain/faces';
import { type BankCandidate, chooseReferenceBank } from '../../../../functions/domain/profiles/reference-bank';

const face = (yawDegrees: number, pitchDegrees = 0, luminance = 0.5, quality = 2.5): BankCandidate => ({
  pose: { yawDegrees, pitchDegrees, luminance },
  quality,
});
const posesOf = (faces: BankCandidate[], chosen: number[]): FacePose[] => chosen.map((index) => faces[index].pose);
/** Today's Quick Train choice: the best scores. */
const bestScores = (faces: BankCandidate[], size: number) =>
  [...faces.keys()].sort((a, b) => faces[b].quality - faces[a].quality).slice(0, size);

describe('chooseReferenceBank: Full Train references that cover the subject’s poses and lightings', () => {
  // Twelve sharp frontal photos (the best scores), and four of the subject turned or tilted, a little less sharp.
  const frontal = Array.from({ length: 12 }, (_, index) => face((index % 3) - 1, 0, 0.5, 2.9 - index * 0.01));
  const turned = [face(35, 0, 0.5, 2.0), face(-35, 0, 0.5, 2.0), face(0, 20, 0.5, 2.0), face(0, -20, 0.5, 2.0)];
  const set = [...frontal, ...turned];

  it('keeps every pose the photos show, where the best scores alone keep only frontal faces', () => {
    const chosen = chooseReferenceBank(set, 8);
    expect(chosen).toHaveLength(8);
    for (const index of [12, 13, 14, 15]) expect(chosen).toContain(index);
    expect(bestScores(set, 8).some((index) => index >= 12)).toBe(false);
  });

  it('starts with the best-scoring face (the picture, today’s first reference)', () => {
    expect(chooseReferenceBank(set, 8)[0]).toBe(0);
  });

  it('keeps a face lit differently from the rest, not a near copy of one already kept', () => {
    const faces = [face(0, 0, 0.5, 2.9), face(1, 0, 0.5, 2.8), face(0, 0, 0.15, 2.0)];
    expect(chooseReferenceBank(faces, 2)).toEqual([0, 2]);
  });

  it('of two faces in the same pose, keeps the better one', () => {
    const faces = [face(0, 0, 0.5, 2.9), face(30, 0, 0.5, 1.2), face(30, 0, 0.5, 2.4)];
    expect(chooseReferenceBank(faces, 2)).toEqual([0, 2]);
  });

  it('covers the poses more evenly than the best scores: every photo nearer its closest reference', () => {
    const spread = Array.from({ length: 20 }, (_, index) =>
      face(-40 + index * 4, ((index * 7) % 5) * 6 - 12, 0.3 + (index % 4) * 0.1, 3 - Math.abs(index - 10) * 0.1),
    );
    const worst = (chosen: number[]) =>
      Math.max(
        ...spread.map((photo) =>
          Math.min(
            ...posesOf(spread, chosen).map((pose) =>
              Math.hypot(photo.pose.yawDegrees - pose.yawDegrees, photo.pose.pitchDegrees - pose.pitchDegrees),
            ),
          ),
        ),
      );
    expect(worst(chooseReferenceBank(spread, 8))).toBeLessThan(worst(bestScores(spread, 8)));
  });

  it('keeps them all when there are no more than the bank holds, and nothing of nothing', () => {
    expect([...chooseReferenceBank(turned, 8)].sort()).toEqual([0, 1, 2, 3]);
    expect(chooseReferenceBank([], 8)).toEqual([]);
  });
});
