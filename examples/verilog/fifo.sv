// A four-entry FIFO whose full flag is off by one: a push when four
// entries are stored is accepted, so the count reaches 5 (unsafe, five
// pushes). The data path is a real memory, so both routes carry it.
module fifo (
    input wire clk,
    input wire push,
    input wire pop,
    input wire [7:0] din,
    output wire [7:0] dout,
    output wire empty
);
  reg [7:0] mem[0:3];
  reg [1:0] wptr = 0;
  reg [1:0] rptr = 0;
  reg [2:0] count = 0;
  wire full = count == 3'd5;  // the bug: a four-entry FIFO is full at 4
  assign empty = count == 3'd0;
  assign dout = mem[rptr];
  wire do_push = push && !full;
  wire do_pop = pop && !empty;
  always @(posedge clk) begin
    if (do_push) begin
      mem[wptr] <= din;
      wptr <= wptr + 2'd1;
    end
    if (do_pop) rptr <= rptr + 2'd1;
    count <= count + {2'd0, do_push} - {2'd0, do_pop};
  end
`ifdef FORMAL
  always @* assert (count <= 3'd4);
`endif
endmodule
