// jobboard-connector/react: the React components, from the front-end
// package @jobboard-connector/widget (an optional dependency of this one),
// for applications that imported them from here before the packages split.
export * from '@jobboard-connector/widget/react';
