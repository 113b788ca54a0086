/** The downloads route: a link's token verified, answered with a short-lived presigned URL. */
import { clock, once } from '../core';
import { objects } from '../storage';
import { downloadSecret } from './links';

export const downloadDeps = once(() => ({ clock, downloadSecret: downloadSecret(), objects: objects() }));
