/**
 * The ARNs of the local stand-ins, written once: the Step Functions and Lambda stand-ins, the
 * artefacts' template resolver and the in-process Lambda context all name resources this way.
 */
export const LOCAL_REGION = 'us-east-1';
export const LOCAL_ACCOUNT = '000000000000';

export const localArn = {
  function: (name: string) => `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:${name}`,
  stateMachine: (name: string) => `arn:aws:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:stateMachine:${name}`,
  execution: (machineName: string, executionName: string) =>
    `arn:aws:states:${LOCAL_REGION}:${LOCAL_ACCOUNT}:execution:${machineName}:${executionName}`,
  secret: (name: string) => `arn:aws:secretsmanager:${LOCAL_REGION}:${LOCAL_ACCOUNT}:secret:${name}`,
  table: (name: string) => `arn:aws:dynamodb:${LOCAL_REGION}:${LOCAL_ACCOUNT}:table/${name}`,
} as const;
