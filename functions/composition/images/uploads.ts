/** Direct uploads: only the presigner and the bucket (no table, no sharp). */
import { uploadStore } from '../../adapters/s3/uploads';
import { newId } from '../../domain/shared/ids';
import { clock, once } from '../core';
import { objects } from '../storage';

export const uploadDeps = once(() => ({ uploads: uploadStore(objects()), newId, clock }));
