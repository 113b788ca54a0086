/**
 * The service's state: one DynamoDB table (generic keys, one GSI, TTL) and one S3 bucket (inputs, outputs,
 * profile photos and pictures).
 */
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { BUCKET_AREAS } from '../../functions/deployment/access';
import { acknowledge } from './acknowledgements';

/** Download links live 24 h; the objects behind them one day longer, so a link never outlives its object. */
export const OUTPUT_EXPIRY_DAYS = 2;
/** Async jobs' inputs are read by their workflow within its 30-minute budget; a day is ample. */
export const INPUT_EXPIRY_DAYS = 1;
export const OUTPUTS_PREFIX = BUCKET_AREAS.outputs;

/**
 * A browser page (the portal's playground and profile studio, or a customer's own site) PUTs direct
 * uploads and GETs downloads through presigned URLs, on the bucket's origin, not the page's. Any origin
 * may: the presigned URL is the credential (it signs the key, the method, the exact type and size, and
 * expires), so CORS adds no authority; it only lets a browser send what a server could send already.
 * The bucket stays private: a request without a valid signature is refused whatever its origin.
 * The local S3 (bin/local-aws/s3.ts) answers the same.
 */
export const BUCKET_CORS: s3.CorsRule = {
  allowedMethods: [s3.HttpMethods.PUT, s3.HttpMethods.GET],
  allowedOrigins: ['*'],
  allowedHeaders: ['*'],
  exposedHeaders: ['ETag'],
  maxAge: 3000,
};

export class Data extends Construct {
  readonly table: dynamodb.Table;
  readonly bucket: s3.Bucket;
  /** The HMAC key of download links (functions read it once per cold start). */
  readonly downloadTokenSecret: secretsmanager.Secret;

  constructor(scope: Construct, id: string) {
    super(scope, id);

    this.downloadTokenSecret = new secretsmanager.Secret(this, 'DownloadTokenSecret', {
      description: 'HMAC key that signs download links (GET /v2/service/downloads/{token})',
      generateSecretString: { passwordLength: 64, excludePunctuation: true },
    });
    acknowledge(
      this.downloadTokenSecret,
      'AwsSolutions-SMG4',
      "Rotating this key would invalidate every outstanding 24-hour download link at once; it is an internal HMAC key (no credential to a third party), read only by this stack's functions, and rotated by replacing the secret during a maintenance window.",
    );

    this.table = new dynamodb.Table(this, 'Table', {
      partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
      sortKey: { name: 'sk', type: dynamodb.AttributeType.STRING },
      billingMode: dynamodb.BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: 'ttl',
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      removalPolicy: RemovalPolicy.RETAIN,
      // The table holds every balance and the ledger: deleting it takes a deliberate change first.
      deletionProtection: true,
    });
    this.table.addGlobalSecondaryIndex({
      indexName: 'gsi1',
      partitionKey: { name: 'gsi1pk', type: dynamodb.AttributeType.STRING },
      sortKey: { name: 'gsi1sk', type: dynamodb.AttributeType.STRING },
      projectionType: dynamodb.ProjectionType.ALL,
    });

    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      removalPolicy: RemovalPolicy.RETAIN,
      lifecycleRules: [
        { id: 'expire-outputs', prefix: OUTPUTS_PREFIX, expiration: Duration.days(OUTPUT_EXPIRY_DAYS) },
        { id: 'expire-inputs', prefix: BUCKET_AREAS.inputs, expiration: Duration.days(INPUT_EXPIRY_DAYS) },
        // Direct uploads are refused 24 h after they arrive (domain/images/uploads.ts); S3 deletes them a day later at most.
        { id: 'expire-uploads', prefix: BUCKET_AREAS.uploads, expiration: Duration.days(1) },
        { id: 'abort-incomplete-uploads', abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
      cors: [BUCKET_CORS],
    });
    acknowledge(
      this.bucket,
      'AwsSolutions-S1',
      'No server access log bucket: only the service functions touch objects, and every download goes ' +
        'through GET /downloads/{token}, which the API access log records before it redirects to a ' +
        'short-lived presigned URL.',
    );
  }
}
