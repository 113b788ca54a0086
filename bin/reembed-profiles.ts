/**
 * The wiring of `npm run admin -- reembed-profiles`: the table's READY profiles, the bucket's photos and
 * the face analyser of this checkout (its model id is the one templates must have), its models built first.
 */
import { DynamoProfiles } from '../functions/adapters/dynamo/profiles-repository';
import type { Table } from '../functions/adapters/dynamo/table';
import { createOnnxFaceAnalyzer } from '../functions/adapters/faces/onnx-face-analyzer';
import { profilePhotos } from '../functions/adapters/images/photos';
import type { ObjectStore } from '../functions/adapters/s3/object-store';
import type { ReembedDeps } from '../functions/domain/profiles/reembed';
import { systemClock } from '../functions/domain/shared/clock';
import { ensureFaceModels } from './faces/build-models';

export const reembedDeps = (table: Table, objects: ObjectStore): ReembedDeps => {
  const profiles = new DynamoProfiles(table);
  ensureFaceModels();
  return {
    clock: systemClock,
    profiles,
    readyProfiles: () => profiles.allReady(),
    faces: createOnnxFaceAnalyzer(),
    photos: profilePhotos(objects),
    settings: { trainingDelaySeconds: 0, photoConcurrency: 2 },
  };
};
