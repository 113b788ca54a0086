// Tests run quiet and offline: no AWS credentials or network are ever needed.
process.env.LOG_LEVEL ??= 'silent';
process.env.AWS_REGION ??= 'us-east-1';
process.env.AWS_ACCESS_KEY_ID ??= 'local';
process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
// The local tools run on Node 20; the deployed functions run on Node 22.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
