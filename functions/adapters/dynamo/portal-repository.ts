/** The portal's invitations, users and sessions in the single table (keys in table.ts). */
import { DeleteCommand, GetCommand, PutCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { Invitation, PortalRepository, PortalUser, Session } from '../../domain/portal/portal';
import type { IdSource } from '../../domain/shared/ids';
import { accountCreation } from './accounts-repository';
import { cancellationReasons, ITEM_TYPE, keys, type Table, transactWrite, ttlAfter } from './table';

const InvitationItem = v.object({
  tokenHash: v.string(),
  email: v.string(),
  creditMicros: v.number(),
  createdAt: v.number(),
  expiresAt: v.number(),
  acceptedAt: v.optional(v.nullable(v.number()), null),
});

const UserItem = v.object({
  email: v.string(),
  accountId: v.string(),
  passwordHash: v.string(),
  createdAt: v.number(),
});

const SessionItem = v.object({
  idHash: v.string(),
  email: v.string(),
  accountId: v.string(),
  csrfToken: v.string(),
  createdAt: v.number(),
  lastSeenAt: v.number(),
  expiresAt: v.number(),
});

const OPENING_CREDIT_NOTE = 'opening credit (invitation)';

export class DynamoPortal implements PortalRepository {
  constructor(
    private readonly table: Table,
    private readonly newId: IdSource,
  ) {}

  async createInvitation(invitation: Invitation): Promise<void> {
    // No acceptedAt attribute until it is accepted: the acceptance is conditional on its absence.
    const { acceptedAt: _none, ...unaccepted } = invitation;
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...keys.invitation(invitation.tokenHash),
          type: ITEM_TYPE.invitation,
          ...unaccepted,
          ttl: ttlAfter(invitation.expiresAt),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async findInvitation(tokenHash: string): Promise<Invitation | undefined> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.invitation(tokenHash), ConsistentRead: true }),
    );
    return Item ? v.parse(InvitationItem, Item) : undefined;
  }

  /** For the operator's CLI only (a Scan of one item type; no function is granted Scan but the sweep). */
  async listInvitations(): Promise<Invitation[]> {
    const invitations: Invitation[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.table.doc.send(
        new ScanCommand({
          TableName: this.table.name,
          FilterExpression: '#type = :type',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':type': ITEM_TYPE.invitation },
          ExclusiveStartKey: startKey,
        }),
      );
      invitations.push(...(page.Items ?? []).map((item) => v.parse(InvitationItem, item)));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return invitations.sort((a, b) => b.createdAt - a.createdAt);
  }

  async acceptInvitation(input: {
    tokenHash: string;
    user: PortalUser;
    account: Parameters<typeof accountCreation>[1];
    at: number;
  }) {
    try {
      await transactWrite(this.table, [
        {
          Update: {
            TableName: this.table.name,
            Key: keys.invitation(input.tokenHash),
            UpdateExpression: 'SET acceptedAt = :at, accountId = :account',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(acceptedAt) AND expiresAt > :at',
            ExpressionAttributeValues: { ':at': input.at, ':account': input.account.accountId },
          },
        },
        {
          Put: {
            TableName: this.table.name,
            Item: { ...keys.portalUser(input.user.email), type: ITEM_TYPE.portalUser, ...input.user },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        ...accountCreation(this.table, input.account, this.newId('led'), OPENING_CREDIT_NOTE),
      ]);
      return 'accepted' as const;
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (reasons?.[0]?.Code === 'ConditionalCheckFailed') return 'used' as const;
      if (reasons?.[1]?.Code === 'ConditionalCheckFailed') return 'email-taken' as const;
      throw error;
    }
  }

  async findUser(email: string): Promise<PortalUser | undefined> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.portalUser(email), ConsistentRead: true }),
    );
    return Item ? v.parse(UserItem, Item) : undefined;
  }

  async createSession(session: Session): Promise<void> {
    await this.table.doc.send(
      new PutCommand({
        TableName: this.table.name,
        Item: {
          ...keys.portalSession(session.idHash),
          type: ITEM_TYPE.portalSession,
          ...session,
          ttl: ttlAfter(session.expiresAt),
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async findSession(idHash: string): Promise<Session | undefined> {
    const { Item } = await this.table.doc.send(
      new GetCommand({ TableName: this.table.name, Key: keys.portalSession(idHash), ConsistentRead: true }),
    );
    return Item ? v.parse(SessionItem, Item) : undefined;
  }

  async touchSession(idHash: string, at: number): Promise<void> {
    await this.table.doc
      .send(
        new UpdateCommand({
          TableName: this.table.name,
          Key: keys.portalSession(idHash),
          UpdateExpression: 'SET lastSeenAt = :at',
          // A session signed out meanwhile stays gone.
          ConditionExpression: 'attribute_exists(pk) AND lastSeenAt < :at',
          ExpressionAttributeValues: { ':at': at },
        }),
      )
      .catch((error: unknown) => {
        if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
      });
  }

  async deleteSession(idHash: string): Promise<void> {
    await this.table.doc.send(new DeleteCommand({ TableName: this.table.name, Key: keys.portalSession(idHash) }));
  }
}
