/** The CDK app: the service stack, checked by cdk-nag's AwsSolutions rules on every synth. */
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { ServiceStack } from '../lib/service-stack';

const app = new App();
new ServiceStack(app, 'IdentityImageService');
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
