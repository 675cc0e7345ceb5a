export * from '@jobboard-connector/widget';
