import { z } from 'zod';

/**
 * The event types of the example shop, by full name (namespace first), each with its payload
 * schema: the bus checks every payload against it, and `<Event>` documents it.
 */
export const shopEvents = {
  'events.OrderPlaced': z
    .object({
      orderId: z.number().int().describe('Id of the new order.'),
      email: z.email().describe('Email address of the customer who placed it.'),
    })
    .describe('A customer placed an order. Emitted once the order is stored.'),
  'events.OrderShipped': z
    .object({
      orderId: z.number().int().describe('Id of the order that left the warehouse.'),
      carrier: z.string().describe('Carrier that took the parcel, as the warehouse wrote it.'),
      shippedAt: z.iso.datetime().describe('When the order was marked shipped (ISO 8601, UTC).'),
    })
    .describe('An order left the warehouse. Emitted once, when the order moves from pending to shipped.'),
};

export type ShopEventName = keyof typeof shopEvents;
export type ShopEventPayload<N extends ShopEventName> = z.infer<(typeof shopEvents)[N]>;
type Handler<N extends ShopEventName> = (payload: ShopEventPayload<N>) => void | Promise<void>;

/** The shop's typed event bus: `emit` checks the payload against the event's schema. */
export interface ShopEventBus {
  on<N extends ShopEventName>(name: N, handler: Handler<N>): () => void;
  emit<N extends ShopEventName>(name: N, payload: ShopEventPayload<N>): Promise<void>;
}

/**
 * Creates the shop's event bus. Handlers run in registration order; one that throws is reported
 * to `onError` and the others still run, so an event never breaks the request that fired it.
 */
export function createShopEvents(onError: (error: unknown, name: ShopEventName) => void = console.error): ShopEventBus {
  const handlers = new Map<ShopEventName, Array<Handler<ShopEventName>>>();
  return {
    on(name, handler) {
      const list = handlers.get(name) ?? [];
      list.push(handler as Handler<ShopEventName>);
      handlers.set(name, list);
      return () => {
        const at = list.indexOf(handler as Handler<ShopEventName>);
        if (at !== -1) list.splice(at, 1);
      };
    },
    async emit(name, payload) {
      const checked = shopEvents[name].parse(payload);
      for (const handler of [...(handlers.get(name) ?? [])]) {
        try {
          await handler(checked as ShopEventPayload<ShopEventName>);
        } catch (error) {
          onError(error, name);
        }
      }
    },
  };
}
