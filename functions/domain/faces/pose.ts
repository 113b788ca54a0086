/**
 * Read first: how a face is turned and lit, and how far two faces are from each other in that sense.
 * The analyser reports each face's yaw and pitch (estimated from its landmarks: adapters/faces/face-geometry.ts)
 * and the mean luminance of its aligned crop. Two uses:
 * - training (profiles/reference-bank.ts) keeps reference crops that cover the poses and lightings of the
 *   subject's photos (`bankDistance`: pose and light);
 * - a request (engine/reference-choice.ts) sends the references closest in pose to the subject's face in
 *   the input (`poseDistance`: pose only; the model relights what it draws).
 */

/** How a face is turned and lit: what the reference bank covers. */
export interface FacePose {
  /** Head turn: 0 frontal, ±90 profile (towards the image's right is positive). */
  yawDegrees: number;
  /** Head tilt: 0 level, positive chin up (looking up), negative chin down. */
  pitchDegrees: number;
  /** Mean grey level of the face (the inner half of its aligned crop), 0 black to 1 white. */
  luminance: number;
}

/** Which way a head is turned, without its light: what a request matches references on. */
export type HeadPose = Pick<FacePose, 'yawDegrees' | 'pitchDegrees'>;

/** The angle between two head poses, in degrees (yaw and pitch as plane coordinates: faces within ±45° of frontal). */
export const poseDistance = (a: HeadPose, b: HeadPose): number =>
  Math.hypot(a.yawDegrees - b.yawDegrees, a.pitchDegrees - b.pitchDegrees);

/**
 * How different two faces are as references, pose and light together, in units of a "clearly different"
 * step: 15° of yaw, 10° of pitch (a face turns sideways more than it nods) or 0.15 of luminance (a lit
 * face against one in the shade) each count as one.
 */
export const BANK_STEP = { yawDegrees: 15, pitchDegrees: 10, luminance: 0.15 } as const;
export const bankDistance = (a: FacePose, b: FacePose): number =>
  Math.hypot(
    (a.yawDegrees - b.yawDegrees) / BANK_STEP.yawDegrees,
    (a.pitchDegrees - b.pitchDegrees) / BANK_STEP.pitchDegrees,
    (a.luminance - b.luminance) / BANK_STEP.luminance,
  );

/** The pose of an analysed face. */
export const poseOf = (face: FacePose): FacePose => ({
  yawDegrees: face.yawDegrees,
  pitchDegrees: face.pitchDegrees,
  luminance: face.luminance,
});
