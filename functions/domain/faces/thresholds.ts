/**
 * Read first: the decision thresholds of face recognition, measured with `npx tsx bench/faces/calibrate.ts`
 * on the committed fixtures (test/fixtures/faces/) and the research set behind issue 23, for the model id
 * `human-faceres-3.3.6/b1`. They belong to that model: another model id needs its own calibration.
 * The fixtures are a small set: the figures say how this set behaves, not a guarantee at scale.
 */

/**
 * A face counts for a profile when its cosine to the profile's template mean is at least this.
 * CALIBRATION_PENDING
 */
export const MATCH_THRESHOLD = 0.6;

/**
 * …and at least this much above the next-best candidate of the same kind, so that two similar profiles in
 * one request are not both claimed by one face; a face is then given to nobody.
 */
export const MATCH_MARGIN = 0.05;

/**
 * Training: a photo whose face has a cosine below this to the mean of the other photos' faces is not the
 * same person as the rest of the set.
 */
export const SAME_PERSON_THRESHOLD = 0.6;

/** The face-landmark model's confidence below which a detection is an animal (or no face), not a person. */
export const MIN_PERSON_FACE_CONFIDENCE = 0.2;
