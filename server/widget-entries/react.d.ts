export * from '@jobboard-connector/widget/react';
