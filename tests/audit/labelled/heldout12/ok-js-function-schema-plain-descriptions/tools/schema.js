export const getOrder = {
  type: 'function',
  function: {
    name: 'get_order',
    description: 'Get the status of one order.',
    parameters: {
      type: 'object',
      properties: {
        order_id: { type: 'string', description: 'Order number as printed on the receipt, e.g. 10-4482.' },
        include_items: { type: 'boolean', description: 'Also return the line items.' },
      },
      required: ['order_id'],
    },
  },
};
