/**
 * Read first: the decision thresholds of face recognition, for the model id `human-faceres-3.3.6/b2`
 * (FaceRes on a grey crop), measured with `npx tsx bench/faces/calibrate.ts` on the committed fixtures (test/fixtures/faces/:
 * 32 photos of faces of 28 people, each also flipped, blurred σ 2.5, shrunk to ¼ and back, saved at JPEG
 * quality 15, rotated 15° and made grey: 222 analysed faces, 865 same-person pairs, 22,957 different-person
 * pairs). Another model id needs its own calibration. The set is small: FAR 0.1 % here is the 23 highest
 * different-person pairs, so the figures describe this set, not a guarantee at scale; the research set of
 * issue 23 (323 images, 35 people) gave FaceRes a TAR of 97.5 % at a FAR of 0.1 %.
 *
 * Measured (pairs of faces; "template" = a face against the normalised mean of an identity's other photos,
 * as `recognise` compares, 45 same-person and 5,899 different-person trials):
 * - same person: median cosine 0.909, p10 0.788 (the lowest are 30–50 px faces of Messi re-compressed);
 *   different people: median 0.353, p90 0.474, max 0.649.
 * - TAR at FAR 0.1 % (pairs): 0.990, at a cosine of 0.615.
 * - at 0.65: pairs TAR 0.990, FAR 0; templates TAR 0.978, FAR 0 (0 of 5,899).
 * - at 0.70: pairs TAR 0.985, FAR 0 (0 of 22,957); templates TAR 0.978, FAR 0 (0 of 5,899).
 * - at 0.75: pairs TAR 0.960; templates TAR 0.956.
 * (b1, the colour crop, on the same set: same person median 0.888, p10 0.757; different people max 0.648;
 * at 0.70 pairs TAR 0.971. The grey crop raised same-person scores and left strangers where they were.)
 */

/**
 * A face counts for a profile when its cosine to the profile's template mean is at least this. Billing
 * depends on it, so it sits where this set shows no false accept, pairs or templates (see above).
 */
export const MATCH_THRESHOLD = 0.7;

/**
 * …and at least this much above the next-best candidate of the same kind, so that one face is not
 * billed for whichever of two look-alike profiles happens to be a hair closer; such a face counts for
 * nobody. On the set above no same-person trial above the threshold was lost to it.
 */
export const MATCH_MARGIN = 0.05;

/**
 * Training: a photo whose face has a cosine below this to the mean of the set's other faces is someone
 * else. Lower than MATCH_THRESHOLD because it sets a photo aside rather than bills: same-person templates
 * scored above it in 97.8 % of trials, different people at most 0.649 in pairs (no template trial of 5,899
 * above it).
 */
export const SAME_PERSON_THRESHOLD = 0.65;

/**
 * The face-landmark model's confidence below which a detection is an animal (or no face at all), not a
 * person. The cat of the fixtures scores 0.001, every person face above 0.5 except one face saved at JPEG
 * quality 15 (the research set: every cat and dog detection below 0.2, one JPEG q15 grey face lost).
 */
export const MIN_PERSON_FACE_CONFIDENCE = 0.2;

/**
 * A detection below MIN_PERSON_FACE_CONFIDENCE is still a person when FaceMesh, shown the crop turned to
 * level the eyes, is at least this confident: FaceMesh expects an upright face. `bench/faces/pets.ts`
 * tilts the fixtures' people photos 25° and 40°: 9 of their 88 faces read below 0.2 upright (animals, they
 * were), 7 of those 0.989 to 1.0 levelled, so 2 remain. The animal detections of its photos (20, altered
 * and tilted), whose "eyes" are wherever the detector put them, read at most 0.752 levelled.
 */
export const MIN_LEVELLED_PERSON_FACE_CONFIDENCE = 0.9;

/**
 * An animal face is one the face-landmark model firmly rejects as human: below this confidence (every one
 * of the 20 animal detections of `bench/faces/pets.ts` scores at most 0.051; the cats of the fixtures
 * 0.001 and 0.000). A detection between this and MIN_PERSON_FACE_CONFIDENCE (a cartoon, a mask, a face
 * too damaged to read) is neither a person nor an animal: recognition ignores it.
 */
export const MAX_ANIMAL_FACE_CONFIDENCE = 0.06;

/**
 * Whether an animal match may be billed. No threshold has been measured on animal photos (the committed
 * set holds three cat faces of two cats, no pair of one animal), so an animal match is reported in
 * `recognized_faces` with `billed: false` and is left out of `known_subjects` and the price until one is.
 */
export const ANIMAL_MATCHES_BILLED = false;

/**
 * `sharpness` below which a face is too blurred to train on. On the set above: original photos 0.007 to
 * 0.755 (median 0.038); blurred σ 2.5 median 0.003 (p90 0.011); shrunk to ¼ and back median 0.007.
 */
export const MIN_FACE_SHARPNESS = 0.005;
