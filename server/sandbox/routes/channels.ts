// GET /channels and GET /entities/:entity_id/channels. With the Entity
// option, channels belong to entities: GET /channels then lists only the
// company-wide ones (entity_id null) and each entity's are listed by the
// entity route. Without it, GET /channels lists them all and the entity
// route answers 404 (such a company has no entities).
import type { Router } from 'express';
import type { Channel } from '../../contract/index.ts';
import { companyById, isJobboard } from '../access.ts';
import type { SandboxContext } from '../context.ts';
import { notFound } from '../errors.ts';
import { callerOf, parseId, requireScope } from '../http.ts';
import type { RecordingRouter } from '../route-table.ts';

const COLUMNS = 'ch.id, ch.value, ch.name, ch.entity_id';

export function channelRoutes(ctx: SandboxContext, router: RecordingRouter): Router {
  const { db } = ctx;

  router.get('/channels', (_req, res) => {
    const client = callerOf(res);
    requireScope(client, 'campaigns_read');
    if (isJobboard(client)) {
      res.json(db.all<Channel>(`SELECT ${COLUMNS} FROM channels ch WHERE ch.value = ? ORDER BY ch.id`, client.channel));
      return;
    }
    const company = companyById(db, client.company_id ?? -1);
    const entityOption = company?.entity_option === 1;
    res.json(
      db.all<Channel>(
        `SELECT ${COLUMNS} FROM channels ch WHERE ch.company_id = ? ${entityOption ? 'AND ch.entity_id IS NULL' : ''} ORDER BY ch.value`,
        client.company_id ?? -1,
      ),
    );
  });

  router.get('/entities/:entity_id/channels', (req, res) => {
    const client = callerOf(res);
    requireScope(client, 'campaigns_read');
    const entityId = parseId(req.params.entity_id, 'entity');
    const entity = db.get<{ id: number; company_id: number; entity_option: number }>(
      'SELECT e.id, e.company_id, co.entity_option FROM entities e JOIN companies co ON co.id = e.company_id WHERE e.id = ?',
      entityId,
    );
    const visible =
      entity !== undefined &&
      entity.entity_option === 1 &&
      (isJobboard(client) || entity.company_id === client.company_id);
    if (!visible) throw notFound('The entity with this id');
    res.json(
      isJobboard(client)
        ? db.all<Channel>(
            `SELECT ${COLUMNS} FROM channels ch WHERE ch.entity_id = ? AND ch.value = ? ORDER BY ch.value`,
            entityId,
            client.channel,
          )
        : db.all<Channel>(`SELECT ${COLUMNS} FROM channels ch WHERE ch.entity_id = ? ORDER BY ch.value`, entityId),
    );
  });

  return router.express;
}
