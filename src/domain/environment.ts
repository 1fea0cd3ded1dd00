/** Which environment a deployment is (DESIGN.md): sandbox takes only the test cards and marks every event a test. */
export type Environment = 'sandbox' | 'production';
