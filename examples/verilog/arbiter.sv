// A two-client round-robin arbiter with registered grants. Safe: never
// both grants, a grant only for a client that asked in the cycle before,
// and client 0 is passed over at most once in a row (when both ask, the
// grant alternates).
module arbiter (
    input wire clk,
    input wire [1:0] req,
    output reg [1:0] gnt
);
  reg last = 0;  // the client served last when both asked
  reg [1:0] req_q = 0;  // the requests of the cycle before
  reg [1:0] waited = 0;  // cycles client 0 has waited with its request up
  initial gnt = 0;
  always @(posedge clk) begin
    req_q <= req;
    case (req)
      2'b00: gnt <= 2'b00;
      2'b01: gnt <= 2'b01;
      2'b10: gnt <= 2'b10;
      2'b11: begin
        gnt <= last ? 2'b01 : 2'b10;
        last <= !last;
      end
    endcase
    waited <= (req[0] && !(req == 2'b01 || (req == 2'b11 && last))) ?
              (waited == 2'd3 ? 2'd3 : waited + 2'd1) : 2'd0;
  end
`ifdef FORMAL
  always @* assert (gnt != 2'b11);
  always @* assert (!gnt[0] || req_q[0]);
  always @* assert (!gnt[1] || req_q[1]);
  always @* assert (waited <= 2'd1);
`endif
endmodule
