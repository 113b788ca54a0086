/** The downloads route: a link's token verified, answered with a short-lived presigned URL. */
import { clock, once } from '../core';
import { downloadSecret } from '../secrets';
import { objects } from '../storage';

export const downloadDeps = once(() => ({ clock, downloadSecret: downloadSecret(), objects: objects() }));
